package org.topupbatch.text;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import org.junit.jupiter.api.Test;

/**
 * A stack trace in the log keeps its lines, but no exception's message can add one: a library's
 * exception quoting a request's CR/LF (Vert.x refusing a header) cannot forge a log line.
 */
class OneLineThrowableConverterTest {

    @Test
    void an_exceptions_message_and_its_causes_are_escaped_and_the_frames_kept() {
        LoggerContext context = new LoggerContext();
        OneLineThrowableConverter converter = new OneLineThrowableConverter();
        converter.setContext(context);
        converter.start();
        IllegalStateException cause = new IllegalStateException("cause\u0000\u001b[2J");
        IllegalArgumentException thrown = new IllegalArgumentException(
                "only ' ' and '\\t' are allowed after '\\n': \r\n17:00:00.000 INFO  RunMonitor forged", cause);
        LoggingEvent event = new LoggingEvent("test", context.getLogger("test"), Level.WARN, "failed", thrown, null);

        String written = converter.convert(event);

        assertThat(written).doesNotContain("\r", "\u0000", "\u001b");
        assertThat(written.lines()).noneMatch(l -> l.startsWith("17:00:00.000"));
        assertThat(written).contains("\\r\\n17:00:00.000 INFO  RunMonitor forged", "cause\\u0000\\u001B[2J");
        assertThat(written.lines()).anyMatch(l -> l.strip().startsWith("at org.topupbatch.text.OneLineThrowableConverterTest"));
    }
}
