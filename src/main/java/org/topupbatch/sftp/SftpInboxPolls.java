package org.topupbatch.sftp;

import org.apache.camel.Consumer;
import org.apache.camel.Endpoint;
import org.apache.camel.spi.ExceptionHandler;
import org.apache.camel.spi.PollingConsumerPollStrategy;
import org.apache.camel.support.ScheduledPollConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poll strategy and exception handler of the SFTP inbox consumer (bean {@code sftpInboxPolls}).
 * A failed poll (camel-ftp throws because of throwExceptionOnConnectFailed=true, after its single
 * login: maximumReconnectAttempts=0) is handed to {@link SftpAccess}, which logs it once and turns
 * the health check DOWN, and rethrown, because only a rethrown failure counts for Camel's
 * scheduled-consumer back-off (backoffErrorThreshold=1). After each failure the number of polls
 * skipped doubles, up to 5 minutes between attempts whatever the poll delay; a poll that works
 * puts it back and logs the recovery. Camel's default strategy and handler would log a WARN with a
 * stack trace at every failure instead, and never back off.
 */
public final class SftpInboxPolls implements PollingConsumerPollStrategy, ExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(SftpInboxPolls.class);
    static final long MAX_PAUSE_MILLIS = 300_000;

    private final SftpAccess access;

    public SftpInboxPolls(SftpAccess access) {
        this.access = access;
    }

    @Override
    public boolean begin(Consumer consumer, Endpoint endpoint) {
        return true;
    }

    @Override
    public void commit(Consumer consumer, Endpoint endpoint, int polledMessages) {
        if (consumer instanceof ScheduledPollConsumer poll) {
            poll.setBackoffMultiplier(1);
        }
        access.worked();
    }

    @Override
    public boolean rollback(Consumer consumer, Endpoint endpoint, int retryCounter, Exception cause) throws Exception {
        access.failed(cause);
        if (consumer instanceof ScheduledPollConsumer poll) {
            long delay = Math.max(1, poll.getDelay());
            int most = (int) Math.max(1, MAX_PAUSE_MILLIS / delay - 1);
            poll.setBackoffMultiplier(Math.min(most, Math.max(1, poll.getBackoffMultiplier()) * 2));
        }
        throw cause; // no retry within this poll; counted by the back-off
    }

    // the failure was logged in one line by SftpAccess; the stack trace only for whoever debugs camel-ftp
    @Override
    public void handleException(Throwable exception) {
        LOG.debug("SFTP inbox poll failed", exception);
    }

    @Override
    public void handleException(String message, Throwable exception) {
        LOG.debug("{}", message, exception);
    }

    // a batch that failed in the delivery route: logged as Camel's own handler does (unchanged)
    @Override
    public void handleException(String message, org.apache.camel.Exchange exchange, Throwable exception) {
        LOG.warn("{}", message, exception);
    }
}
