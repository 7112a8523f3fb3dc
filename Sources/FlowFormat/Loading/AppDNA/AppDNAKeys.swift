/// The keys each AppDNA object may carry (the SDK's decoders and document 001): the ones the
/// compiler reads and the cosmetic ones it accepts silently. Anything else is an unknown-key
/// warning with a "did you mean" (the SDK ignores it).
enum AppDNAKeys {
  static let bundle: KeySet = [
    "bundle_version", "onboarding", "paywalls", "experiments", "remote_config", "feature_flags", "screen_index",
    "brand", "messages", "surveys", "screens", "generated_at", "app_id",
  ]

  static let flows: KeySet = ["active_flow_id", "flows", "bundle_version", "app_id", "generated_at"]

  static let flow: KeySet = [
    "id", "name", "version", "status", "steps", "settings", "graph_nodes", "graph_layout", "audience_rules",
    "created_at", "updated_at", "description", "app_id",
  ]

  static let settings: KeySet = [
    "show_progress", "allow_back", "dismiss_allowed", "progress_style", "progress_skip_label", "back_button_style",
    "haptic", "progress_color", "progress_track_color", "progress_height", "progress_gradient_colors",
    "progress_flash_color", "skip_to_step", "content_padding", "block_spacing",
  ]

  static let step: KeySet = [
    "id", "type", "name", "config", "layout", "content_blocks", "next_step_rules", "hook", "hide_progress",
    "hide_back",
  ]

  static let hook: KeySet = [
    "enabled", "webhook_url", "timeout_ms", "loading_text", "error_text", "retry_count", "headers",
  ]

  /// The limits a field's `config` (and a block's `field_config`) may carry; the compiler reads
  /// them within flowrun's ranges (AppDNA+Numbers.swift) and other config keys loosely.
  static let fieldLimits: KeySet = [
    "max_length", "max_chips", "max_selections", "min_value", "max_value", "max_stars", "step",
  ]

  static let stepConfig: KeySet = [
    "title", "subtitle", "image_url", "cta_text", "skip_enabled", "options", "selection_mode", "items", "layout",
    "fields", "validation_mode", "chat_config", "content_blocks", "layout_variant", "background", "text_style",
    "element_style", "animation", "localizations", "default_locale", "next_step_rules", "progress_color",
    "permission_type", "show_settings_fallback_on_denied", "settings_fallback_label", "hide_progress", "hide_back",
  ]

  static let block: KeySet = [
    "id", "type", "zone", "vertical_align", "text", "style", "field_id", "field_label", "field_placeholder",
    "field_required", "field_style", "field_options", "multi_select", "field_config", "action", "action_value",
    "children", "stack_children", "visibility_condition", "bindings", "block_style", "entrance_animation",
    "pressed_style", "element_width", "element_height", "overflow", "collapse_on_scroll", "max_lines", "z_index",
    "horizontal_align", "vertical_offset", "horizontal_offset", "level", "image_url", "alt", "image_fit",
    "image_frame", "lottie_url", "rive_url", "artboard", "state_machine", "video_url", "video_thumbnail_url",
    "autoplay", "video_autoplay", "loop", "variant", "gradient_colors", "gradient_direction", "options",
    "selection_mode", "fields", "dot_count", "active_index", "min_value", "max_value_picker", "max_value",
    "step_value", "default_picker_value", "default_value", "unit", "providers", "timeline_items", "loading_items",
    "total_duration_ms", "auto_advance", "loading_text", "duration_seconds", "on_expire_action", "expired_text",
    "max_stars", "default_rating", "allow_half", "rating_label", "markdown_content", "rich_text_variant",
    "link_color", "progress_variant", "progress_value", "total_segments", "filled_segments", "show_label",
    "label_format", "custom_label", "fill_color", "track_color", "fill_gradient", "corner_radius", "height",
    "bar_color", "bar_gradient_colors", "bar_height", "gauge_value", "sublabel", "picker_mode",
    "default_date_value", "min_date", "max_date", "allow_future", "allow_past", "date_validation_message", "gap",
    "direction", "row_direction", "distribution", "row_distribution", "view_key", "custom_config",
    "placeholder_text", "particle_type", "pricing_plans", "pricing_layout", "items", "list_style", "badge_text",
    "icon_emoji", "icon_ref", "divider_text", "spacer_height", "toggle_label", "toggle_description",
    "toggle_default", "otp_length", "speed", "label", "measurement",
  ]

  static let field: KeySet = [
    "id", "type", "label", "placeholder", "required", "validation", "options", "config", "depends_on", "style",
  ]

  static let rule: KeySet = ["target_step_id", "conditions", "condition", "logic"]
}
