package org.topupbatch.text;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import org.junit.jupiter.api.Test;

class OneLineTest {

    @Test
    void lineBreaksAndControlCharactersAreEscapedTextStays() {
        assertThat(OneLine.of("TB-1\nrejected  line 9  ref_id X: forged")).isEqualTo("TB-1\\nrejected  line 9  ref_id X: forged");
        assertThat(OneLine.of("a\r\nb\tc")).isEqualTo("a\\r\\nb\\tc");
        assertThat(OneLine.of("\u001B[2Jclear")).isEqualTo("\\u001B[2Jclear");
        assertThat(OneLine.of("del\u007F c1\u009B ls\u2028")).isEqualTo("del\\u007F c1\\u009B ls\\u2028");
        assertThat(OneLine.of("José Ñandú Rp 10.000")).isEqualTo("José Ñandú Rp 10.000");
        assertThat(OneLine.of(null)).isEmpty();
    }

    @Test
    void aLongValueIsCutWithItsLengthSaid() {
        String header = "x".repeat(60_000);
        assertThat(OneLine.of(header)).isEqualTo("x".repeat(OneLine.DEFAULT_LIMIT) + "… (60000 characters)");
        assertThat(OneLine.of("abcdef", 3)).isEqualTo("abc… (6 characters)");
        // a character outside the BMP is never split in two
        assertThat(OneLine.of("ab\uD83D\uDE00cd", 3)).isEqualTo("ab… (6 characters)");
    }

    @Test
    void theLogsMessagesAreOneLineEach() {
        LoggerContext context = new LoggerContext();
        LoggingEvent event = new LoggingEvent("x", context.getLogger("t"), Level.WARN,
                "Batch {} cannot be read: {}", null, new Object[] {"evil\n12:00:00.000 INFO  forged.csv", "\u001B[2J"});
        assertThat(new OneLineMessageConverter().convert(event))
                .isEqualTo("Batch evil\\n12:00:00.000 INFO  forged.csv cannot be read: \\u001B[2J");
    }
}
