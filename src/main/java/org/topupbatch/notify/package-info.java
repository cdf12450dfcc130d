/**
 * Telling people what happened (docs/operating.md#notifications): events such as a batch reported or
 * stopped, as short plain text for people (e-mail, Telegram) and as JSON for HTTP endpoints,
 * delivered through the Camel endpoints of {@code topup.notify.uris} by routes/notify.yaml, never in
 * the way of an order.
 */
package org.topupbatch.notify;
