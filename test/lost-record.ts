// For tests of what holds when an email went out and its record did not (extensions §14: sent again at most once).
import type { Database } from '../src/db/client'

/**
 * The deps with a database that refuses, once, the first write made after `delivered()` has grown: the record of the
 * email that just reached the mail server, lost as if the database had stayed busy past its wait.
 */
export function losingTheRecord<D extends { db: Database }>(deps: D, delivered: () => number): D {
  const seen = delivered()
  let lost = false
  const write: Database['write'] = (fn) => {
    if (delivered() > seen && !lost) {
      lost = true
      return Promise.reject(new Error('SQLITE_BUSY: database is locked'))
    }
    return deps.db.write(fn)
  }
  return { ...deps, db: { ...deps.db, write } }
}
