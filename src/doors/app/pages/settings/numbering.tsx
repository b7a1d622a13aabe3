// Settings → Numbering: the pattern of each kind of number (documents, Receipts, Client account codes).
import type { NumberingKind } from '../../../../db/schema'
import { DEFAULT_PATTERNS, numberingPattern } from '../../../../modules/numbering'
import type { FormState, InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Field, Notice, Refused } from '../../ui'
import { FieldsForm, Section } from '../../settings-parts'
import { SettingsLayout, settingsPage } from './index'

const KINDS: ReadonlyArray<readonly [NumberingKind, string]> = [
  ['invoice', 'Invoices'],
  ['proforma', 'Proforma Invoices'],
  ['credit_note', 'Credit Notes'],
  ['quote', 'Quotes'],
  ['receipt', 'Receipts'],
  ['client', 'Client account codes'],
]

async function NumberingPage({ c, form }: { c: InBusiness; form: FormState }): Promise<string> {
  const patterns = await Promise.all(KINDS.map(([k]) => numberingPattern(c.deps.db.read, c.business.id, k)))
  const refusedKind = form.values?.get('kind')
  return (
    <SettingsLayout c={c} title="Numbering" path="/numbering">
      <h1>Numbering</h1>
      <p class="lead">
        A pattern is text with one counter <code>{'{NNNN}'}</code> (as many N as digits) and, if you like, the year{' '}
        <code>{'{YYYY}'}</code>; the counter starts again each year then.
      </p>
      <Notice text={c.notice} />
      <>
        {KINDS.map(([kind, label], i) => {
          const mine = refusedKind === kind ? form : { ...form, values: null, errors: {}, message: null }
          return (
            <Section id={`n-${kind}`} title={label}>
              <Refused state={mine} shown={['pattern']} />
              <FieldsForm
                action={`${c.base}/settings/numbering`}
                token={c.csrf}
                submit={`Save ${label.toLowerCase()} pattern`}
              >
                <input type="hidden" name="kind" value={kind} />
                <Field
                  name="pattern"
                  label="Pattern"
                  state={mine}
                  value={patterns[i]}
                  required
                  maxlength={100}
                  hint={`Default: ${DEFAULT_PATTERNS[kind]}`}
                />
              </FieldsForm>
            </Section>
          )
        })}
      </>
    </SettingsLayout>
  )
}

export function numberingSettings(kit: AppKit): void {
  const page = settingsPage(kit, '/settings/numbering', (c, form) => <NumberingPage c={c} form={form} />)
  page.change('', 'numbering_set', 'saved', (d) => ({
    body: { kind: d.get('kind') ?? '', pattern: (d.get('pattern') ?? '').trim() },
  }))
}
