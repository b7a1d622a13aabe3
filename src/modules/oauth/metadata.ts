// The documents that let a client find this server with nothing but its address: RFC 8414 (authorization server)
// and RFC 9728 (protected resource: the API at /v1 and the MCP server at /mcp).

/** The issuer is the service's public base URL (INVOICING_PUBLIC_URL exactly, else this server on localhost). */
export { publicBaseUrl as issuerOf } from '../../config'

/** The resources a token may be issued for (RFC 8707); both when the request names none. */
export function resourcesOf(issuer: string): { api: string; mcp: string; all: string[] } {
  return { api: `${issuer}/v1`, mcp: `${issuer}/mcp`, all: [`${issuer}/v1`, `${issuer}/mcp`] }
}

export const SCOPES = ['admin', 'member', 'viewer'] as const

export function authorizationServerMetadata(issuer: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    registration_endpoint: `${issuer}/oauth/register`,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
  }
}

/** RFC 9728 §2 for one of the two resources this server protects. */
export function protectedResourceMetadata(issuer: string, resource: string): Record<string, unknown> {
  return {
    resource,
    authorization_servers: [issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: resource.endsWith('/mcp') ? 'invoicing MCP server' : 'invoicing API',
  }
}
