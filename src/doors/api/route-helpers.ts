// The services the API door keeps beside the composition root's dependencies: idempotency, cursors, kept pages.
import type { Cursors } from '../../platform/cursors'
import type { PageCache } from '../../platform/page-cache'
import type { Idempotency } from '../../platform/idempotency'

/** Services the HTTP layer adds to the composition root's dependencies. */
export interface HttpServices {
  idempotency: Idempotency
  cursors: Cursors
  /** Pages of lists that are a function of the stored rows alone; null without a hot reader (remote database). */
  pages: PageCache | null
}
