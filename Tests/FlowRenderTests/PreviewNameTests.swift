import Testing

@testable import FlowRender

/// Field names cut into words for the mock values (`PreviewData.words`).
@Suite struct PreviewNameTests {
  /// Names cut as bytes against the character-wise cut (ASCII names take the bytes).
  @Test(arguments: [
    "first_name", "firstName", "First-Name", "userEmail", "URLPath", "field_12", "a1B2c3", "x", "", "__",
    "dob.day", "HTTPServerURL", "name\r\nlast", "e-mail 2",
  ])
  func namesCutAsCharacters(name: String) {
    #expect(PreviewData.asciiWords(name) == PreviewData.characterWords(name))
  }

  @Test func otherNamesAreCutByCharacters() {
    #expect(PreviewData.asciiWords("prénom") == nil)
    #expect(PreviewData.words("Prénom_Nom") == ["prénom", "nom"])
  }
}
