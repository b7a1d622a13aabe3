// drizzle-kit settings: generates SQL migrations into migrations/ from src/db/schema.
import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema/index.ts',
  out: './migrations',
})
