// The products module's public face: documents bill Products through these.
export { getProduct, eraseDeletedProducts } from './products.service'
export { presentProduct, productPrices } from './products.present'
export { findProduct, type ProductRow } from './products.repo'
