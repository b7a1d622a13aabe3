// The words module: one message catalog per language for what a Client reads (PDFs, the public page, emails), §18.
export { words, catalogs, type Words, type Formats } from './words'
export {
  LANGUAGES,
  LANGUAGE_FAULT,
  LANGUAGE_OPTIONS,
  isLanguage,
  readerLanguage,
  type Language,
  type Catalog,
  type TitledType,
  type PageStatus,
} from './catalog'
