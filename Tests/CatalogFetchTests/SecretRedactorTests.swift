@testable import CatalogFetch
import Foundation
import Testing

/// Every credential of a run is replaced by `[redacted]` in a store's text, whatever its length or the text's.
struct SecretRedactorTests {
    @Test func everyRegisteredSecretIsReplacedWholeLongestFirst() {
        let redactor = SecretRedactor()
        redactor.add("ya29.a0AfH6SMBx-token_value")
        redactor.add("ya29.a0AfH6SMBx")   // a prefix of the first: the whole token must still go whole
        redactor.add("short")              // under 8 characters: not registered, ordinary words stay

        let text = redactor.redact("Invalid request for token Bearer ya29.a0AfH6SMBx-token_value; short; ya29.a0AfH6SMBx")

        #expect(text == "Invalid request for token Bearer [redacted]; short; [redacted]")
    }

    @Test func aPercentEncodedTokenIsRedactedToo() {
        let redactor = SecretRedactor()
        redactor.add("eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4In0.c2ln")

        #expect(redactor.redact("assertion=eyJhbGciOiJSUzI1NiJ9%2EeyJpc3MiOiJ4In0%2Ec2ln")
            == "assertion=[redacted]")
    }

    @Test func keyMaterialIsRedactedWholeJoinedAndLineByLine() {
        let redactor = SecretRedactor()
        let pem = """
            -----BEGIN PRIVATE KEY-----
            MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg
            c2VjcmV0LWtleS1tYXRlcmlhbC1saW5lLXR3by0xMjM0NTY3
            Zg==
            -----END PRIVATE KEY-----
            """
        redactor.addKeyMaterial(pem: pem)

        #expect(redactor.redact("key: \(pem)") == "key: [redacted]")
        #expect(redactor.redact("MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgc2VjcmV0LWtleS1tYXRlcmlhbC1saW5lLXR3by0xMjM0NTY3Zg==")
            == "[redacted]")
        #expect(redactor.redact("line c2VjcmV0LWtleS1tYXRlcmlhbC1saW5lLXR3by0xMjM0NTY3 quoted")
            == "line [redacted] quoted")
    }

    @Test func aLongTextIsRedactedBeforeItIsBoundedAndNoMarkIsCut() {
        let redactor = SecretRedactor()
        let jwt = String(repeating: "J", count: 400)
        redactor.add(jwt)
        // The secret straddles the bound: it is replaced first, so no prefix of it survives the cut, nor half a mark.
        let text = String(repeating: "x", count: 995) + jwt + String(repeating: "y", count: 50)

        let shown = redactor.redact(text)

        #expect(shown == String(repeating: "x", count: 995) + "…")
        #expect(redactor.redact(String(repeating: "x", count: 100) + jwt) == String(repeating: "x", count: 100) + "[redacted]")
    }
}
