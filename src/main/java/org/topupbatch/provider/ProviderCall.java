package org.topupbatch.provider;

import java.time.Instant;

/**
 * One provider request as the journal recorded it: reserved before it left, answered (or given
 * up on) when it ended. {@code answeredAt} and {@code httpStatus} are null while it was never
 * completed, for instance because the process died with the request in flight.
 *
 * @param httpStatus the HTTP status of the answer, 0 when no answer came
 */
public record ProviderCall(long id, Instant reservedAt, String operation, Instant answeredAt, Integer httpStatus) {

    public boolean completed() {
        return answeredAt != null;
    }
}
