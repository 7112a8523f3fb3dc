/// How a screen animates in: document 000's nine `ScreenTransition` values. Only a graphical
/// renderer draws them; flowrun checks their names and shows them in traces.
public enum ScreenTransition: String, Hashable, Sendable, CaseIterable {
  case none
  case fade
  case slideLeft = "slide-left"
  case slideRight = "slide-right"
  case slideUp = "slide-up"
  case slideDown = "slide-down"
  case fadeSlideLeft = "fade-slide-left"
  case fadeSlideRight = "fade-slide-right"
  case scale
}

/// One entry of a flow's `transitions`: the transition of the move from one screen to another,
/// which wins over the destination screen's own `transition`.
public struct TransitionRule: Hashable, Sendable {
  public var fromScreenID: String
  public var toScreenID: String
  public var transition: ScreenTransition

  public init(fromScreenID: String, toScreenID: String, transition: ScreenTransition) {
    self.fromScreenID = fromScreenID
    self.toScreenID = toScreenID
    self.transition = transition
  }
}
