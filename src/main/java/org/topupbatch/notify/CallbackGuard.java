package org.topupbatch.notify;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which callback URLs may be called (docs/callbacks.md#allowed-hosts): only http(s) URLs whose host is in
 * {@code topup.callback.allowed-hosts}; and at delivery, the name resolved now must not lead to a
 * loopback, private, link-local or otherwise internal address unless that address literal is itself
 * allowed, so a name an ERP controls cannot point the product at its own network.
 */
public final class CallbackGuard {

    private final Set<String> allowed;

    public CallbackGuard(java.util.Collection<String> allowedHosts) {
        this.allowed = allowedHosts.stream().map(h -> h.trim().toLowerCase(Locale.ROOT)).filter(h -> !h.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
    }

    /** Why the URL may not be given as a callback (the door answers 400 with it), or null when it may. */
    public String refusal(String url) {
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            return "callback_url is not a URL";
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            return "callback_url must be an http:// or https:// address";
        }
        if (uri.getUserInfo() != null) {
            return "callback_url must not hold a user name or password";
        }
        String host = host(uri);
        if (!allowed.contains(host)) {
            return "callback_url host " + host + " is not in topup.callback.allowed-hosts";
        }
        return null;
    }

    /**
     * Why the URL may not be called now, or null when it may: {@link #refusal}, then the addresses its
     * host resolves to.
     */
    public String refusalAtDelivery(String url) {
        String refused = refusal(url);
        if (refused != null) {
            return refused;
        }
        String host = host(URI.create(url));
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            return null; // not known now: the HTTP try fails and is retried later
        }
        for (InetAddress a : addresses) {
            if (internal(a) && !allowed.contains(a.getHostAddress().toLowerCase(Locale.ROOT))) {
                return "callback host " + host + " resolves to the internal address " + a.getHostAddress()
                        + ", which is not itself in topup.callback.allowed-hosts";
            }
        }
        return null;
    }

    private static boolean internal(InetAddress a) {
        return a.isLoopbackAddress() || a.isSiteLocalAddress() || a.isLinkLocalAddress() || a.isAnyLocalAddress()
                || a.isMulticastAddress() || uniqueLocal(a);
    }

    /** IPv6 unique local addresses (fc00::/7), which Java does not count as site-local. */
    private static boolean uniqueLocal(InetAddress a) {
        byte[] b = a.getAddress();
        return b.length == 16 && (b[0] & 0xfe) == 0xfc;
    }

    private static String host(URI uri) {
        String h = uri.getHost().toLowerCase(Locale.ROOT);
        return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
    }
}
