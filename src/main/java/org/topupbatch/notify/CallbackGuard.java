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
            // not known now: the HTTP try fails and is retried later; whatever it resolves to when it
            // connects is checked then by the connection's own resolver (GuardedDnsResolver)
            return null;
        }
        return addressRefusal(host, addresses);
    }

    /**
     * Why the host may not be connected to at these addresses, or null when it may: an internal address
     * (see {@link #internal}) is refused unless that address literal is itself allowed. The connection's
     * own resolver ({@link GuardedDnsResolver}) applies this to exactly the addresses it connects to.
     */
    public String addressRefusal(String host, InetAddress[] addresses) {
        for (InetAddress a : addresses) {
            if (internal(a) && !allowed.contains(a.getHostAddress().toLowerCase(Locale.ROOT))) {
                return "callback host " + host + " resolves to the internal address " + a.getHostAddress()
                        + ", which is not itself in topup.callback.allowed-hosts";
            }
        }
        return null;
    }

    /**
     * Addresses that lead into the product's own network or nowhere public: Java's own classes
     * (loopback, RFC 1918 site-local, link-local, any-local, multicast), plus the special IPv4 blocks it
     * does not count, IPv6 unique-local and deprecated site-local, and IPv6 forms that carry an IPv4
     * address inside (mapped, compatible, NAT64 well-known prefix): those are judged by the IPv4 inside.
     */
    static boolean internal(InetAddress a) {
        if (a.isLoopbackAddress() || a.isSiteLocalAddress() || a.isLinkLocalAddress() || a.isAnyLocalAddress()
                || a.isMulticastAddress()) {
            return true;
        }
        byte[] b = a.getAddress();
        if (b.length == 4) {
            return specialIpv4(b);
        }
        byte[] inner = embeddedIpv4(b);
        if (inner != null) {
            try {
                return internal(InetAddress.getByAddress(inner));
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e); // four bytes are always an address
            }
        }
        return (b[0] & 0xfe) == 0xfc // fc00::/7 unique local, which Java does not count as site-local
                || ((b[0] & 0xff) == 0xfe && (b[1] & 0xc0) == 0xc0); // fec0::/10 deprecated site-local
    }

    /** IPv4 blocks Java's checks miss: 0/8 "this network", 100.64/10 CGNAT, 192.0.0/24, 198.18/15 benchmarking. */
    private static boolean specialIpv4(byte[] b) {
        int o0 = b[0] & 0xff;
        int o1 = b[1] & 0xff;
        return o0 == 0
                || (o0 == 100 && (o1 & 0xc0) == 64)
                || (o0 == 192 && o1 == 0 && (b[2] & 0xff) == 0)
                || (o0 == 198 && (o1 & 0xfe) == 18);
    }

    /**
     * The IPv4 address inside an IPv6 one, or null: ::ffff:a.b.c.d (mapped; Java usually turns these into
     * IPv4 itself, but not always), ::a.b.c.d (compatible, deprecated), 64:ff9b::a.b.c.d (NAT64, RFC 6052).
     */
    private static byte[] embeddedIpv4(byte[] b) {
        boolean zeros80 = true;
        for (int i = 0; i < 10; i++) {
            zeros80 &= b[i] == 0;
        }
        boolean mapped = zeros80 && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
        boolean compatible = zeros80 && b[10] == 0 && b[11] == 0;
        boolean nat64 = (b[0] & 0xff) == 0x00 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b;
        for (int i = 4; nat64 && i < 12; i++) {
            nat64 = b[i] == 0;
        }
        return mapped || compatible || nat64 ? java.util.Arrays.copyOfRange(b, 12, 16) : null;
    }

    private static String host(URI uri) {
        String h = uri.getHost().toLowerCase(Locale.ROOT);
        return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
    }
}
