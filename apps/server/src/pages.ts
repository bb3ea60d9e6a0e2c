export { mountPages } from "./pages/index";
