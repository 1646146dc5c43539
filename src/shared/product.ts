/** Product constants shown on both sides (spec section 9). */
export const PRODUCT_VERSION = '0.66';
export const ASSISTANT_NAME = 'Biggy';
