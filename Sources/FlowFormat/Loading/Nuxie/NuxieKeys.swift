/// The keys, triggers and action types of Nuxie flow documents (research §1.2, §1.5).
enum NuxieKeys {
  static let remoteFlow: KeySet = [
    "id", "name", "bundle", "targets", "fontManifest", "screens", "interactions", "viewModels", "viewModelInstances",
    "converters", "components",
  ]
  static let flowDescription: KeySet = [
    "id", "name", "flowArtifact", "screens", "events", "handlers", "scripts", "viewModelValues",
  ]
  static let screen: KeySet = ["id", "name", "defaultViewModelId", "defaultInstanceId"]
  static let triggers: Set<String> = ["press", "long_press", "hover", "drag", "start", "event", "manual", "did_set"]
  static let actions = [
    "navigate", "back", "dismiss", "exit", "open_link", "send_event", "call_delegate", "set_view_model", "condition",
    "experiment", "purchase", "restore", "delay", "time_window", "wait_until", "goal", "milestone", "update_customer",
    "set_response_field", "submit_response", "request_notifications", "request_permission", "request_tracking",
    "remote", "fire_trigger", "list_insert", "list_remove", "list_swap", "list_move", "list_set", "list_clear",
  ]
}
