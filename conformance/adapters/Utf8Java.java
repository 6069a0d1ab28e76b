// utf8 adapter core: the JDK's UTF-8 CharsetDecoder with CodingErrorAction.REPORT for malformed
// and unmappable input, a strict decoder (it confirms y_ cases and rejects every i_ case).
// Run by utf8_java.py: java Utf8Java FILE -> the canonical dump (conformance/SPEC.md, format
// utf8), exit 0; exit 1 with "error: format" when the decoder reports an error.
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

public final class Utf8Java {
    /** The decoded text of the bytes, or null when the decoder reports them ill-formed. */
    static String decode(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            return decoder.decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            System.err.println("CharsetDecoder: " + e);
            return null;
        }
    }

    /** The quoted form of conformance/SPEC.md section 1, one UTF-16 code unit at a time. */
    static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7F) {
                out.append(c);
            } else {
                out.append(String.format("\\u%04X", (int) c));
            }
        }
        return out.append('"').toString();
    }

    public static void main(String[] args) throws Exception {
        String text = decode(Files.readAllBytes(Paths.get(args[0])));
        if (text == null) {
            System.err.println("error: format");
            System.exit(1);
        }
        System.out.print("docconform-dump utf8 1\nunits " + text.length() + "\ntext " + quote(text) + "\n");
    }
}
