export { registerBusinessProfileResource } from "./business-profile";
export { registerCategoryResources, CATEGORIES_URI } from "./categories";
export { completeCategory } from "./category-completion";
export { registerCorrectionStatusResource, CORRECTION_URI_TEMPLATE } from "./correction-status";
