/** Examples for the OpenAPI document, taken from the demo workspace's answers; the tests check them against their schemas. */

/** Web app settings (getChatWebAppSettings). */
export const WEB_APP_SETTINGS_EXAMPLE = {
  title: "Acme Support",
  chat_color_theme: "#1C64F2",
  chat_color_theme_inverted: false,
  icon_type: "emoji",
  icon: "🛠️",
  icon_background: "#FFEAD5",
  icon_url: null,
  description: "Answers questions about Acme Widgets.",
  copyright: "© 2026 Acme",
  privacy_policy: "https://acme.example/privacy",
  input_placeholder: "Ask about your widget…",
  custom_disclaimer: "",
  default_language: "en-US",
  show_workflow_steps: true,
  use_icon_as_answer_icon: false,
};
