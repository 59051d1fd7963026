/** Customer answers' tabs (app/routes/app.customer-answers.tsx), shared by its loader and page. */
export const ANSWER_TABS = ["waiting", "answered", "all"] as const;
export type AnswerTab = (typeof ANSWER_TABS)[number];
