package org.topupbatch.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.Outbox.OutgoingMessage;

/**
 * A notice as outbox messages: one per endpoint, one event id for all, the endpoint stored with its
 * password masked and found again at delivery; two endpoints that differ only in a password (they mask
 * alike) keep a key each, so both get the notice and neither collides with the other in the outbox.
 */
class NotificationsTest {

    @Test
    void eachEndpointGetsTheNoticeUnderAMaskedKeyOfItsOwn() {
        String a = "smtp://127.0.0.1:25?username=ops&password=first-secret&to=a@example.com";
        String b = "smtp://127.0.0.1:25?username=ops&password=second-secret&to=a@example.com";
        String http = "https://erp.example.com/hooks";
        Notifications n = new Notifications(List.of(a, b, http), null);
        List<OutgoingMessage> messages = n.messagesFor(new Notice("batch_reported", "subject", "text", Map.of("rows", 3)), 7L);

        assertThat(messages).hasSize(3).extracting(OutgoingMessage::eventId).containsOnly(messages.get(0).eventId());
        assertThat(messages).extracting(OutgoingMessage::target).doesNotHaveDuplicates()
                .allSatisfy(t -> assertThat(t).doesNotContain("first-secret").doesNotContain("second-secret"));
        assertThat(messages.stream().map(m -> n.endpointOf(m.target())).toList()).containsExactly(a, b, http);
        assertThat(messages.get(2).body()).startsWith("{\"event\":\"batch_reported\"");
        assertThat(messages.get(0).body()).isEqualTo("subject\ntext");
        assertThat(n.endpointOf("smtp://gone")).isNull();
    }
}
