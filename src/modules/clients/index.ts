// The clients module's public face for other modules and the CLI.
export {
  getClient,
  createClient,
  updateClient,
  planClient,
  writeClientId,
  clientNumbering,
  type ClientDeps,
  type ClientPlan,
} from './clients.service'
export { presentClient, electronicAddressOf } from './clients.present'
export { findClient, findClients, listClients, type ClientRow } from './clients.repo'
export { ClientCreateBody, ClientUpdateBody } from './clients.model'
