package org.topupbatch.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.camel.CamelExecutionException;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.Outbox;
import org.topupbatch.journal.Outbox.OutboxEntry;
import org.topupbatch.journal.Outbox.OutgoingMessage;

/**
 * A callback refused by the connection's resolver (DNS rebinding caught at connect) is given up at
 * once, not retried, with the guard's one line as its last error: what status and the dashboard show.
 */
class OutboxDeliveryRefusalTest {

    private static final String LINE = "callback host erp.example.com resolves to the internal address 127.0.0.1,"
            + " which is not itself in topup.callback.allowed-hosts";

    @TempDir
    Path data;

    @Test
    void aRefusalAtConnectIsGivenUpAtOnceWithTheGuardsLine() throws Exception {
        JdbcJournal journal = JdbcJournal.open(data, "", null, null);
        try (DefaultCamelContext camel = new DefaultCamelContext()) {
            Outbox outbox = journal.outbox();
            outbox.add(List.of(new OutgoingMessage("evt_1", "batch_reported", Callbacks.KIND,
                    "http://erp.example.com/cb", null, "{}", null)));
            Instant now = Instant.now().plusSeconds(1); // after the journal recorded the message (its own clock)
            OutboxEntry entry = outbox.claimDue(now, "node-a", Duration.ofMinutes(10), 10).get(0);
            OutboxDelivery delivery = new OutboxDelivery(outbox, new Notifications(List.of(), outbox), null,
                    new OutboxSchedule(Duration.ofSeconds(30), Duration.ofDays(2)), Clock.fixed(now, ZoneOffset.UTC), "node-a");

            Exchange exchange = new DefaultExchange(camel);
            exchange.setProperty(OutboxDelivery.ENTRY_PROPERTY, entry);
            // as the route's doCatch sees it, wrapped once more for good measure
            exchange.setProperty(Exchange.EXCEPTION_CAUGHT,
                    new CamelExecutionException("delivery failed", exchange, new GuardedDnsResolver.Refused(LINE)));
            delivery.failed(exchange);

            assertThat(outbox.claimDue(now.plus(Duration.ofDays(1)), "node-a", Duration.ofMinutes(10), 10))
                    .as("not tried again").isEmpty();
            assertThat(outbox.state(10).givenUpListed()).singleElement()
                    .satisfies(e -> assertThat(e.lastError()).isEqualTo(LINE));
        } finally {
            journal.close();
        }
    }
}
