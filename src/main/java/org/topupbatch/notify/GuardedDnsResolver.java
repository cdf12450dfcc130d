package org.topupbatch.notify;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.apache.hc.client5.http.DnsResolver;

/**
 * The resolver of the connections callbacks are delivered on (docs/callbacks.md#allowed-hosts): the
 * addresses it returns are the ones HttpClient connects to, so {@link CallbackGuard}'s address rule is
 * applied here, to exactly those. A check made earlier by another lookup is not enough: a name the ERP
 * controls can answer a public address to that lookup and 127.0.0.1 to the connection's (DNS rebinding).
 */
public final class GuardedDnsResolver implements DnsResolver {

    private final CallbackGuard guard;
    private final DnsResolver delegate;

    public GuardedDnsResolver(CallbackGuard guard, DnsResolver delegate) {
        this.guard = guard;
        this.delegate = delegate;
    }

    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
        InetAddress[] addresses = delegate.resolve(host);
        String refused = guard.addressRefusal(host, addresses);
        if (refused != null) {
            throw new Refused(refused);
        }
        return addresses;
    }

    @Override
    public String resolveCanonicalHostname(String host) throws UnknownHostException {
        return delegate.resolveCanonicalHostname(host);
    }

    /** The connection was not made: the host led to an internal address; the message is the guard's one line. */
    public static final class Refused extends UnknownHostException {
        public Refused(String message) {
            super(message);
        }
    }
}
