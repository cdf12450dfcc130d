package org.topupbatch.sandbox;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Loses the answer to a request whose order was made (the lost-answer knobs): the same for every dialect. */
final class LostAnswer {

    private static final String GATEWAY_TIMEOUT_HTML = "<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n"
            + "<body>\r\n<center><h1>504 Gateway Time-out</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

    private LostAnswer() {
    }

    /** Whether this answer is to be lost, drawn from the lost-answer-rate knob. */
    static boolean drawn(SandboxConfig config, Random random) {
        return random.nextDouble() < config.lostAnswerRate();
    }

    /** The order exists; the client never learns it. */
    static void lose(HttpExchange exchange, SandboxConfig config, Random random) throws IOException {
        LostAnswerMode mode = config.lostAnswerMode();
        if (mode == LostAnswerMode.MIXED) {
            mode = random.nextBoolean() ? LostAnswerMode.DROP : LostAnswerMode.GATEWAY_TIMEOUT;
        }
        if (mode == LostAnswerMode.DROP) {
            // closing an exchange before its headers were sent makes the JDK server close the connection
            // itself: the client reads end-of-stream where the status line should be
            exchange.close();
            return;
        }
        byte[] html = GATEWAY_TIMEOUT_HTML.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/html");
        exchange.sendResponseHeaders(504, html.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(html);
        }
    }
}
