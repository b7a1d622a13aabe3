// TypeBox models of the reminder settings (extensions §14): the answer and the body of PUT /v1/reminder-settings.
import { Type as t, type Static } from '@sinclair/typebox'
import { Bool, Int, Nullable } from '../../shared/schemas'
import { Text } from '../../shared/text-schema'
import { MAX_MESSAGE, MAX_STEP_DAYS, MAX_STEPS, MAX_SUBJECT, MIN_STEP_DAYS, PLACEHOLDERS } from './steps'

const placeholders = PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')

const days = Int({
  minimum: MIN_STEP_DAYS,
  maximum: MAX_STEP_DAYS,
  description: 'days from the due date (negative: before it); distinct across steps',
})

export const ReminderSettingsSchema = t.Object(
  {
    enabled: Bool(),
    steps: t.Array(
      t.Object({
        days: Int(),
        subject: Nullable(t.String()),
        message: Nullable(t.String()),
      }),
      { description: 'sorted by days' },
    ),
  },
  { title: 'ReminderSettings' },
)

export const ReminderSettingsBody = t.Object(
  {
    enabled: Bool(),
    steps: t.Array(
      t.Object(
        {
          days,
          subject: t.Optional(
            Nullable(
              Text({
                maxLength: MAX_SUBJECT,
                description: `one line; may hold ${placeholders}; null takes the service's default words`,
              }),
            ),
          ),
          message: t.Optional(
            Nullable(
              Text({
                maxLength: MAX_MESSAGE,
                description: `may hold ${placeholders}; null takes the service's default words`,
              }),
            ),
          ),
        },
        { additionalProperties: false },
      ),
      { maxItems: MAX_STEPS, description: `at most ${MAX_STEPS} steps, each with its own days` },
    ),
  },
  { additionalProperties: false, title: 'ReminderSettingsUpdate' },
)

export type ReminderSettingsInput = Static<typeof ReminderSettingsBody>
