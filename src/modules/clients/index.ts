// The clients module's public face for other modules and the CLI.
export { getClient, createClient } from './clients.service'
export { presentClient, electronicAddressOf } from './clients.present'
export { findClient, type ClientRow } from './clients.repo'
