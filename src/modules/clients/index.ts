// The clients module's public face for other modules.
export { getClient } from './clients.service'
export { presentClient } from './clients.present'
export { findClient, type ClientRow } from './clients.repo'
