package org.topupbatch.journal;

/**
 * Which customers can be reached (docs/customer-messages.md): told a row's kept {@code notify_to} (a
 * {@code +62…} number or an e-mail address), whether a channel is configured for its kind. Only then
 * does a row's SUCCESS write the customer's message into the outbox; a row no channel reaches gets
 * none (and an empty {@code customer_notified}).
 */
@FunctionalInterface
public interface CustomerChannels {

    CustomerChannels NONE = notifyTo -> false;

    boolean reach(String notifyTo);
}
