// Every table of the service, for drizzle-kit and the typed client.
export * from './business'
export * from './clients'
export * from './platform'
export * from './products'
export * from './documents'
export * from './payments'
export * from './webhooks'
export * from './mail'
