import FlowEngine
import FlowFormat

/// A chat step's conversation: one line a bubble (`ai:`, `you:`, `!` for an error bubble), then
/// the quick replies, the rating prompt and how many turns are left.
enum ChatDrawing {
  static func section(_ session: Session, width: Int) -> Section? {
    guard let config = session.currentScreen.chat, let chat = session.currentChat else { return nil }
    var lines: [StyledLine] = []
    for message in chat.messages {
      let run: [StyledRun] =
        switch message.role {
        case "user": [StyledRun("you: ", .bold), StyledRun(message.content)]
        case "system": [StyledRun("! " + message.content, .red)]
        default: [StyledRun("ai: ", .cyan), StyledRun(message.content)]
        }
      lines += TextWrapper.wrap(run, width: width)
    }
    if chat.completion == nil, chat.turns < config.maxTurns {
      if !chat.quickReplies.isEmpty {
        let replies = chat.quickReplies.map { "[\($0.id)] \($0.text)" }.joined(separator: ", ")
        lines += TextWrapper.wrap([StyledRun("quick replies (:reply ID): ", .dim), StyledRun(replies)], width: width)
      }
      if chat.ratingPrompted, chat.rating == 0 {
        lines += TextWrapper.wrap([StyledRun("rate this chat: :rate 1-5", .dim)], width: width)
      }
      let left = config.maxTurns - chat.turns
      lines += TextWrapper.wrap(
        [StyledRun("(\(left) of \(config.maxTurns) messages left: :chat TEXT sends one)", .dim)], width: width)
    } else {
      lines += TextWrapper.wrap(
        [StyledRun("(chat \(chat.completion.map { "completed: \($0)" } ?? "finished"))", .dim)], width: width)
    }
    return Section(lines: lines)
  }
}
