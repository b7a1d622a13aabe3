// The products module's public face: documents bill Products through these.
export {
  eraseDeletedProducts,
  createProduct,
  updateProduct,
  planProduct,
  writeProductId,
  type ProductDeps,
  type ProductPlan,
} from './products.service'
export { presentProduct, productPrices } from './products.present'
export { findProduct, listProducts, productVatRateCounts, type ProductRow } from './products.repo'
export { ProductCreateBody, ProductUpdateBody } from './products.model'
