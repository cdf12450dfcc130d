package org.topupbatch.text;

import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * The log's {@code %msg}, one line per event whatever a message carries: a file name, header or
 * ref_id with a line break or an escape sequence is logged escaped ({@link OneLine}), so a file
 * cannot forge log lines or drive the terminal of whoever tails the log. A message is cut at
 * {@link #LIMIT} characters with its length said. Stack traces ({@code %ex}) are not messages and
 * keep their lines.
 */
public final class OneLineMessageConverter extends MessageConverter {

    static final int LIMIT = 4_000;

    @Override
    public String convert(ILoggingEvent event) {
        return OneLine.of(event.getFormattedMessage(), LIMIT);
    }
}
