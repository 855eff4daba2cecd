// Money lives in @allot/contract/money (decision 0069). This name stays only for the API's budgets
// test kit (apps/api/test/testing/budgets-test-kit.ts): delete it once that kit imports the contract's.
export { toMoney } from "@allot/contract/money";
