// Errors in OAuth's own words (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 7009 §2.2.1): `{error, error_description}`.

export class OAuthFault extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description)
  }
}
