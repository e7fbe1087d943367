package com.acme.text;

/** Decodes UTF-8 by hand, replacing every malformed sequence with U+FFFD. */
public class Utf8Decoder {
    private static final char REPLACEMENT = '\uFFFD';

    public String decode(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < bytes.length) {
            int lead = bytes[i] & 0xFF;
            int length = sequenceLength(lead);
            if (length == 0 || i + length > bytes.length) {
                out.append(REPLACEMENT);
                i++;
                continue;
            }
            int codePoint = length == 1 ? lead : lead & (0x7F >> length);
            for (int k = 1; k < length; k++) {
                codePoint = (codePoint << 6) | (bytes[i + k] & 0x3F);
            }
            out.appendCodePoint(codePoint);
            i += length;
        }
        return out.toString();
    }

    public boolean isAscii(byte[] bytes) {
        for (byte b : bytes) {
            if ((b & 0x80) != 0) {
                return false;
            }
        }
        return true;
    }

    private static int sequenceLength(int lead) {
        if (lead < 0x80) {
            return 1;
        }
        if (lead >= 0xC2 && lead < 0xE0) {
            return 2;
        }
        if (lead >= 0xE0 && lead < 0xF0) {
            return 3;
        }
        if (lead >= 0xF0 && lead < 0xF0) {
            return 4;
        }
        return 0;
    }
}
