import FlowExpression

/// The SDK's permission pipeline: a step with a supported `permission_type` (its `next`
/// buttons), or a button with `action: "permission"`, asks the host (`permission.<type>`).
/// Granted or denied, the step is then submitted with `permission_<type>` set, after
/// `permission_prompted` and `permission_granted`/`permission_denied`.
extension DecodeContext {
  static let appdnaPermissionTypes: Set<String> = [
    "notification", "att", "location", "camera", "microphone", "photos", "contacts", "calendar",
  ]

  /// A supported permission type (case aside), else nil.
  static func appdnaPermissionType(_ text: String?) -> String? {
    guard let type = text?.lowercased(), appdnaPermissionTypes.contains(type) else { return nil }
    return type
  }

  /// The blocks with their permission-asking buttons compiled, and the type the first asks for.
  static func appdnaPermission(
    _ blocks: [Block], stepType: String?, step: AppDNAStepContext
  ) -> (blocks: [Block], type: String?) {
    var used: String?
    func rewrite(_ blocks: [Block]) -> [Block] {
      blocks.map { block in
        var copy = block
        switch block.content {
        case .scrollContainer(let children):
          copy.content = .scrollContainer(rewrite(children))
        case .button(var button):
          var type: String?
          switch button.action {
          case .next:
            type = stepType
          case .custom(let custom) where !custom.awaitResult && custom.identifier.hasPrefix("permission."):
            // The type: the step's, else the button's `action_value`. Unsupported: it submits.
            type = stepType ?? appdnaPermissionType(String(custom.identifier.dropFirst("permission.".count)))
            button.action = .next
          default:
            break
          }
          if let type {
            button.action = permissionAction(type, step: step)
            used = used ?? type
          }
          copy.content = .button(button)
        default:
          break
        }
        return copy
      }
    }
    return (rewrite(blocks), used)
  }

  /// `permission.<type>`: success is granted; a failure or a cancelled prompt is denied.
  private static func permissionAction(_ type: String, step: AppDNAStepContext) -> Action {
    let properties: Value = [
      "permission_type": .string(type), "flow_id": .string(step.flowID), "step_id": .string(step.stepID),
    ]
    func outcome(_ granted: Bool) -> Action {
      .sequence([
        .emit(name: "permission_prompted", properties: properties),
        .emit(name: granted ? "permission_granted" : "permission_denied", properties: properties),
        .set(path: ["permission_" + type], value: granted ? "granted" : "denied"),
        .next,
      ])
    }
    return .custom(
      CustomAction(
        identifier: "permission." + type, awaitResult: true, onSuccess: outcome(true), onFailure: outcome(false),
        onCancel: outcome(false)))
  }
}
