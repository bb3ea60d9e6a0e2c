export { htmlNotFound, mountPages } from "./pages/index";
