/** Product constants shown on both sides (docs/product.md). */
export const PRODUCT_VERSION = '0.66';
export const ASSISTANT_NAME = 'Biggy';
