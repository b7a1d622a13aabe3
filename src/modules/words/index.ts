// The words module: one message catalog per language for what a Client reads (PDFs, the public page, emails), §18.
export { words, catalogs, shapeFigure, type Words, type Formats, type FigureShape } from './words'
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
