package org.topupbatch.notify;

/** The receiver's check docs/callbacks.md shows; {@link CallbackSignatureTest} runs it and finds it in the page word for word. */
final class VerifyCallback {

    private VerifyCallback() {
    }

    // docs/callbacks.md: java begin
    static boolean verify(String secret, String header, String body, long nowSeconds) throws Exception {
        String t = null, v1 = null;
        for (String part : header.split(",")) {
            if (part.startsWith("t=")) t = part.substring(2);
            if (part.startsWith("v1=")) v1 = part.substring(3);
        }
        if (t == null || v1 == null || Math.abs(nowSeconds - Long.parseLong(t)) > 300) return false;
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes("UTF-8"), "HmacSHA256"));
        byte[] expected = mac.doFinal((t + "." + body).getBytes("UTF-8"));
        return java.security.MessageDigest.isEqual(expected, java.util.HexFormat.of().parseHex(v1));
    }
    // docs/callbacks.md: java end
}
