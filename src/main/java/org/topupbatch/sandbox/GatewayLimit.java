package org.topupbatch.sandbox;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sandbox knob {@code gateway-limit}: a per-second limit in front of the provider, as nginx's
 * {@code limit_req} puts one ({@code 5/s burst 10}: five a second, ten at once, the rest refused at
 * once), so that a client can be tried against a provider whose gateway turns its per-minute limit
 * into a per-second one. Refused requests never reach the provider: they count in no limit of the
 * account. How a refusal reads is the knob {@code gateway-answer}: {@code html} (nginx's stock 429
 * page, no Retry-After), {@code empty} (a bare 429), {@code json} (the provider's error JSON with
 * {@code Retry-After: 1}).
 */
final class GatewayLimit {

    static final GatewayLimit OFF = new GatewayLimit(0, 0);

    private static final Pattern FORM = Pattern.compile("(\\d{1,4})\\s*/\\s*s(?:\\s+burst\\s+(\\d{1,4}))?");

    private final double perSecond;
    private final int burst;
    /** The GCRA's theoretical arrival time, in System.nanoTime. */
    private long tat = Long.MIN_VALUE;

    private GatewayLimit(double perSecond, int burst) {
        this.perSecond = perSecond;
        this.burst = burst;
    }

    static GatewayLimit parse(String text) {
        if (text == null || text.isBlank() || text.trim().equals("0") || text.trim().equalsIgnoreCase("off")) {
            return OFF;
        }
        Matcher m = FORM.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches() || Integer.parseInt(m.group(1)) == 0) {
            throw new IllegalArgumentException("expected N/s or N/s burst B (e.g. 5/s burst 10), or off");
        }
        int rate = Integer.parseInt(m.group(1));
        return new GatewayLimit(rate, m.group(2) == null ? 0 : Integer.parseInt(m.group(2)));
    }

    boolean off() {
        return perSecond == 0;
    }

    /** Whether a request arriving now passes (nginx limit_req with nodelay: burst + 1 at once, then the rate). */
    synchronized boolean admit() {
        if (off()) {
            return true;
        }
        long interval = (long) (Duration.ofSeconds(1).toNanos() / perSecond);
        long now = System.nanoTime();
        long base = tat == Long.MIN_VALUE || tat < now ? now : tat;
        if (base - now > interval * burst) {
            return false;
        }
        tat = base + interval;
        return true;
    }

    @Override
    public String toString() {
        return off() ? "off" : (long) perSecond + "/s" + (burst > 0 ? " burst " + burst : "");
    }
}
