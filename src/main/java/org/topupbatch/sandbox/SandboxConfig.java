package org.topupbatch.sandbox;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongConsumer;

import static org.topupbatch.sandbox.KnobValues.parseAmount;
import static org.topupbatch.sandbox.KnobValues.parseBoolean;
import static org.topupbatch.sandbox.KnobValues.parseDurations;
import static org.topupbatch.sandbox.KnobValues.parseList;
import static org.topupbatch.sandbox.KnobValues.parseLongDuration;
import static org.topupbatch.sandbox.KnobValues.parseProbability;
import static org.topupbatch.sandbox.KnobValues.requireText;

/**
 * The sandbox's knobs. Mutable and thread-safe: a running sandbox reads every knob at the moment it
 * needs it, so tests (and {@code POST /sandbox/config}) can change behaviour while it runs.
 * Exceptions: {@code seed} is read once at start, and {@code balance} is the balance to set: setting
 * it on a running sandbox replaces the account's live balance.
 */
public final class SandboxConfig {

    /** Prefix of every knob in properties and (upper-cased, {@code .}/{@code -} as {@code _}) in the environment. */
    public static final String PREFIX = "topup.sandbox.";

    /** The demo account's webhook secret (a provider shows it in its dashboard, apart from the api secret). */
    public static final String DEMO_WEBHOOK_SECRET = "whsec-demo-4Tq8Lm";

    /** The waits before each new delivery of a webhook that got no 200, as the real provider documents them. */
    public static final List<Duration> DOCUMENTED_RETRY_SCHEDULE = List.of(
            Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(2));

    /** Knob names (key suffixes) in the order they are documented. */
    public static final List<String> KNOBS = List.of(
            "api-key", "api-secret", "tier", "balance", "webhook-url", "latency", "error-rate",
            "lost-answer-rate", "lost-answer-mode", "settle-delay", "fail-rate", "webhook-duplicate-rate",
            "webhook-late-rate", "webhook-late-delay", "webhook-secret", "webhook-retry-schedule", "check-order",
            "ip-whitelist-enforced", "ip-whitelist", "seed", "rate-limit-storm", "outage", "price-change", "unavailable",
            "gateway-limit", "gateway-answer", "state-file", "dialect", "username", "ref-id-reuse-after",
            "price-list-interval");

    /** The demo account's Digiflazz username (the {@code username} of every Digiflazz request). */
    public static final String DEMO_USERNAME = "demouser7Xk";

    /**
     * How long a Digiflazz ref_id answers with its transaction: Digiflazz's Cek Status page warns that a
     * re-send after 90 days makes a new transaction (https://developer.digiflazz.com/api/buyer/cek-status/).
     */
    public static final Duration DIGIFLAZZ_REF_ID_WINDOW = Duration.ofDays(90);

    private volatile String apiKey = "RSL-7F3A9C21";
    private volatile String apiSecret = "s3cr3t-Kx9pQ2";
    private volatile SandboxTier tier = SandboxTier.GOLD;
    private volatile long balance = 10_000_000L;
    private volatile String webhookUrl = "";
    private volatile DurationRange latency = DurationRange.ZERO;
    private volatile double errorRate;
    private volatile double lostAnswerRate;
    private volatile LostAnswerMode lostAnswerMode = LostAnswerMode.MIXED;
    private volatile DurationRange settleDelay = DurationRange.of(Duration.ofSeconds(2), Duration.ofSeconds(5));
    private volatile double failRate;
    private volatile double webhookDuplicateRate;
    private volatile double webhookLateRate;
    private volatile Duration webhookLateDelay = Duration.ofSeconds(10);
    private volatile String webhookSecret = DEMO_WEBHOOK_SECRET;
    private volatile List<Duration> webhookRetrySchedule = DOCUMENTED_RETRY_SCHEDULE;
    private volatile boolean checkOrder = true;
    private volatile boolean ipWhitelistEnforced;
    private volatile List<String> ipWhitelist = List.of("127.0.0.1");
    private volatile Long seed;
    private volatile PriceChanges priceChanges = PriceChanges.NONE;
    private volatile List<String> unavailable = List.of();
    private volatile GatewayLimit gatewayLimit = GatewayLimit.OFF;
    private volatile String gatewayAnswer = "html";
    private volatile java.nio.file.Path stateFile;
    private volatile boolean stateReadOnly;
    private volatile SandboxDialect dialect = SandboxDialect.TOPUP;
    private volatile String username = DEMO_USERNAME;
    private volatile Duration refIdReuseAfter = DIGIFLAZZ_REF_ID_WINDOW;
    private volatile Duration priceListInterval = Duration.ZERO;
    // fault windows (System.nanoTime deadlines): a 429 storm, an outage; 0 = none
    private volatile long stormUntil;
    private volatile long outageUntil;

    // a running sandbox listens here so that setting the balance tops the live account up (or down)
    private volatile LongConsumer balanceListener = b -> { };

    public static SandboxConfig defaults() {
        return new SandboxConfig();
    }

    /**
     * Reads every knob as {@code topup.sandbox.<knob>} from the lookup (null or blank = unset: the default).
     *
     * @throws IllegalArgumentException naming the key when a value is bad
     */
    public static SandboxConfig fromLookup(Function<String, String> lookup) {
        SandboxConfig config = new SandboxConfig();
        for (String knob : KNOBS) {
            String value = lookup.apply(PREFIX + knob);
            if (value != null && !value.isBlank()) {
                config.set(knob, value);
            }
        }
        return config;
    }

    /**
     * Sets one knob from its text form, exactly as {@link #fromLookup} reads it.
     *
     * @param knob the key suffix, e.g. {@code latency}; the full key {@code topup.sandbox.latency} is accepted too
     * @throws IllegalArgumentException naming the key when the knob is unknown or the value bad
     */
    public SandboxConfig set(String knob, String value) {
        String name = knob.startsWith(PREFIX) ? knob.substring(PREFIX.length()) : knob;
        String v = value == null ? "" : value.trim();
        if (!KNOBS.contains(name)) {
            throw new IllegalArgumentException("unknown sandbox setting " + PREFIX + name + " (known: " + String.join(", ", KNOBS) + ")");
        }
        try {
            switch (name) {
                case "api-key": return setApiKey(requireText(v));
                case "api-secret": return setApiSecret(requireText(v));
                case "tier": return setTier(SandboxTier.parse(v));
                case "balance": return setBalance(parseAmount(v));
                case "webhook-url": return setWebhookUrl(v);
                case "latency": return setLatency(DurationRange.parse(v));
                case "error-rate": return setErrorRate(parseProbability(v));
                case "lost-answer-rate": return setLostAnswerRate(parseProbability(v));
                case "lost-answer-mode": return setLostAnswerMode(LostAnswerMode.parse(v));
                case "settle-delay": return setSettleDelay(DurationRange.parse(v));
                case "fail-rate": return setFailRate(parseProbability(v));
                case "webhook-duplicate-rate": return setWebhookDuplicateRate(parseProbability(v));
                case "webhook-late-rate": return setWebhookLateRate(parseProbability(v));
                case "webhook-late-delay": return setWebhookLateDelay(DurationRange.parseDuration(v));
                case "webhook-secret": return setWebhookSecret(requireText(v));
                case "webhook-retry-schedule": return setWebhookRetrySchedule(parseDurations(v));
                case "check-order": return setCheckOrder(parseBoolean(v));
                case "ip-whitelist-enforced": return setIpWhitelistEnforced(parseBoolean(v));
                case "ip-whitelist": return setIpWhitelist(parseList(v));
                case "seed": return setSeed(v.isEmpty() ? null : Long.parseLong(v));
                case "rate-limit-storm": return startRateLimitStorm(DurationRange.parseDuration(v));
                case "outage": return startOutage(DurationRange.parseDuration(v));
                case "price-change": return setPriceChange(v);
                case "unavailable": return setUnavailable(parseList(v));
                case "gateway-limit": return setGatewayLimit(v);
                case "gateway-answer": return setGatewayAnswer(v);
                case "state-file": return setStateFile(v.isEmpty() ? null : java.nio.file.Path.of(v));
                case "dialect": return setDialect(SandboxDialect.parse(v));
                case "username": return setUsername(requireText(v));
                case "ref-id-reuse-after": return setRefIdReuseAfter(parseLongDuration(v));
                case "price-list-interval": return setPriceListInterval(v.equals("0") ? Duration.ZERO : parseLongDuration(v));
                default: throw new IllegalStateException("knob without a parser: " + name);
            }
        } catch (IllegalArgumentException e) {
            // NumberFormatException is an IllegalArgumentException too; the secret's value is never echoed
            String shown = name.endsWith("-secret") ? "(hidden)" : "'" + v + "'";
            throw new IllegalArgumentException("bad value " + shown + " for " + PREFIX + name
                    + (e.getMessage() == null || e instanceof NumberFormatException ? "" : ": " + e.getMessage()), e);
        }
    }

    /**
     * The knobs as text, the secrets left out: what {@code /sandbox/config} shows. In the Digiflazz dialect the
     * api-key is Digiflazz's secret {@code key} (only its md5 travels), so it is left out too.
     */
    public Map<String, String> describe() {
        Map<String, String> out = new LinkedHashMap<>();
        if (dialect == SandboxDialect.TOPUP) {
            out.put("api-key", apiKey);
        }
        out.put("tier", tier.wireName());
        out.put("balance", Long.toString(balance));
        out.put("webhook-url", webhookUrl);
        out.put("latency", latency.toString());
        out.put("error-rate", Double.toString(errorRate));
        out.put("lost-answer-rate", Double.toString(lostAnswerRate));
        out.put("lost-answer-mode", lostAnswerMode.wireName());
        out.put("settle-delay", settleDelay.toString());
        out.put("fail-rate", Double.toString(failRate));
        out.put("webhook-duplicate-rate", Double.toString(webhookDuplicateRate));
        out.put("webhook-late-rate", Double.toString(webhookLateRate));
        out.put("webhook-late-delay", webhookLateDelay.toMillis() + "ms");
        out.put("webhook-retry-schedule", webhookRetrySchedule.stream().map(d -> d.toMillis() + "ms")
                .collect(java.util.stream.Collectors.joining(",")));
        out.put("check-order", Boolean.toString(checkOrder));
        out.put("ip-whitelist-enforced", Boolean.toString(ipWhitelistEnforced));
        out.put("ip-whitelist", String.join(",", ipWhitelist));
        out.put("seed", seed == null ? "" : seed.toString());
        out.put("rate-limit-storm", remaining(stormUntil).toMillis() + "ms");
        out.put("outage", remaining(outageUntil).toMillis() + "ms");
        out.put("price-change", priceChanges.toString());
        out.put("unavailable", String.join(",", unavailable));
        out.put("gateway-limit", gatewayLimit.toString());
        out.put("gateway-answer", gatewayAnswer);
        out.put("state-file", stateFile == null ? "" : stateFile.toString());
        out.put("dialect", dialect.wireName());
        out.put("username", username);
        out.put("ref-id-reuse-after", refIdReuseAfter.toMillis() + "ms");
        out.put("price-list-interval", priceListInterval.toMillis() + "ms");
        return out;
    }

    private static double checkProbability(double p) {
        if (!(p >= 0.0 && p <= 1.0)) {
            throw new IllegalArgumentException("expected a probability between 0 and 1, got " + p);
        }
        return p;
    }

    void onBalanceSet(LongConsumer listener) {
        this.balanceListener = listener;
    }

    // ---- accessors and fluent setters ----

    public String apiKey() { return apiKey; }
    public SandboxConfig setApiKey(String apiKey) { this.apiKey = requireText(apiKey); return this; }

    public String apiSecret() { return apiSecret; }
    public SandboxConfig setApiSecret(String apiSecret) { this.apiSecret = requireText(apiSecret); return this; }

    public SandboxTier tier() { return tier; }
    public SandboxConfig setTier(SandboxTier tier) { this.tier = java.util.Objects.requireNonNull(tier); return this; }

    public long balance() { return balance; }
    public SandboxConfig setBalance(long balance) {
        if (balance < 0) {
            throw new IllegalArgumentException("balance must not be negative");
        }
        this.balance = balance;
        balanceListener.accept(balance);
        return this;
    }

    /** Empty when no webhook is configured. */
    public String webhookUrl() { return webhookUrl; }
    public SandboxConfig setWebhookUrl(String webhookUrl) { this.webhookUrl = webhookUrl == null ? "" : webhookUrl.trim(); return this; }

    public DurationRange latency() { return latency; }
    public SandboxConfig setLatency(DurationRange latency) { this.latency = java.util.Objects.requireNonNull(latency); return this; }

    public double errorRate() { return errorRate; }
    public SandboxConfig setErrorRate(double errorRate) { this.errorRate = checkProbability(errorRate); return this; }

    public double lostAnswerRate() { return lostAnswerRate; }
    public SandboxConfig setLostAnswerRate(double lostAnswerRate) { this.lostAnswerRate = checkProbability(lostAnswerRate); return this; }

    public LostAnswerMode lostAnswerMode() { return lostAnswerMode; }
    public SandboxConfig setLostAnswerMode(LostAnswerMode mode) { this.lostAnswerMode = java.util.Objects.requireNonNull(mode); return this; }

    public DurationRange settleDelay() { return settleDelay; }
    public SandboxConfig setSettleDelay(DurationRange settleDelay) { this.settleDelay = java.util.Objects.requireNonNull(settleDelay); return this; }

    public double failRate() { return failRate; }
    public SandboxConfig setFailRate(double failRate) { this.failRate = checkProbability(failRate); return this; }

    public double webhookDuplicateRate() { return webhookDuplicateRate; }
    public SandboxConfig setWebhookDuplicateRate(double rate) { this.webhookDuplicateRate = checkProbability(rate); return this; }

    public double webhookLateRate() { return webhookLateRate; }
    public SandboxConfig setWebhookLateRate(double rate) { this.webhookLateRate = checkProbability(rate); return this; }

    public Duration webhookLateDelay() { return webhookLateDelay; }
    public SandboxConfig setWebhookLateDelay(Duration delay) { this.webhookLateDelay = java.util.Objects.requireNonNull(delay); return this; }

    /** The secret webhooks are signed with: md5(webhook_secret + ref_id + status). */
    public String webhookSecret() { return webhookSecret; }
    public SandboxConfig setWebhookSecret(String secret) { this.webhookSecret = requireText(secret); return this; }

    /** The waits before the 2nd, 3rd, ... delivery of a webhook that got no 200; then it is given up. */
    public List<Duration> webhookRetrySchedule() { return webhookRetrySchedule; }
    public SandboxConfig setWebhookRetrySchedule(List<Duration> waits) { this.webhookRetrySchedule = List.copyOf(waits); return this; }

    /** false: {@code /v1/check-order} answers a plain 404, as a provider without that endpoint would. */
    public boolean checkOrder() { return checkOrder; }
    public SandboxConfig setCheckOrder(boolean checkOrder) { this.checkOrder = checkOrder; return this; }

    public boolean ipWhitelistEnforced() { return ipWhitelistEnforced; }
    public SandboxConfig setIpWhitelistEnforced(boolean enforced) { this.ipWhitelistEnforced = enforced; return this; }

    public List<String> ipWhitelist() { return ipWhitelist; }
    public SandboxConfig setIpWhitelist(List<String> addresses) { this.ipWhitelist = List.copyOf(addresses); return this; }

    /** From now on, for this long, every /v1 request is answered 429 (see the knob table of docs/sandbox.md); zero ends a storm. */
    public SandboxConfig startRateLimitStorm(Duration length) { this.stormUntil = deadline(length); return this; }
    public boolean inRateLimitStorm() { return remaining(stormUntil).compareTo(Duration.ZERO) > 0; }

    /** From now on, for this long, every /v1 connection is closed unanswered and unprocessed; zero ends it. */
    public SandboxConfig startOutage(Duration length) { this.outageUntil = deadline(length); return this; }
    public boolean inOutage() { return remaining(outageUntil).compareTo(Duration.ZERO) > 0; }

    private static long deadline(Duration length) {
        return length.isZero() || length.isNegative() ? 0 : System.nanoTime() + length.toNanos();
    }

    private static Duration remaining(long until) {
        if (until == 0) {
            return Duration.ZERO;
        }
        long left = until - System.nanoTime();
        return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    /** {@code +30%}, or {@code SKU:+30%,*:+5%}: prices moved away from the catalog's (empty: the catalog's). */
    public SandboxConfig setPriceChange(String changes) { this.priceChanges = PriceChanges.parse(changes); return this; }

    /** Products out of stock on command ({@code *}: every product), besides those the catalog marks unavailable. */
    public SandboxConfig setUnavailable(List<String> skus) { this.unavailable = List.copyOf(skus); return this; }

    /** {@code 5/s burst 10}: a per-second gateway in front of the provider, refusing the rest with 429; {@code off}. */
    public SandboxConfig setGatewayLimit(String limit) { this.gatewayLimit = GatewayLimit.parse(limit); return this; }

    /** How the gateway's 429 reads: {@code html} (nginx's page), {@code empty}, {@code json} (with Retry-After: 1). */
    public SandboxConfig setGatewayAnswer(String answer) {
        String a = answer == null ? "" : answer.trim().toLowerCase(java.util.Locale.ROOT);
        if (!List.of("html", "empty", "json").contains(a)) {
            throw new IllegalArgumentException("expected html, empty or json");
        }
        this.gatewayAnswer = a;
        return this;
    }

    GatewayLimit gatewayLimit() { return gatewayLimit; }

    String gatewayAnswer() { return gatewayAnswer; }

    /** The product's basic-tier price now. */
    long basicPrice(SandboxProduct product) { return priceChanges.basicPrice(product); }

    /** Whether the product can be ordered now: in the catalog's stock and not made unavailable. */
    boolean available(SandboxProduct product) {
        List<String> down = unavailable;
        return product.available() && !down.contains(product.sku()) && !down.contains("*");
    }

    /**
     * Where the account (balance and orders) is kept between runs; null: in memory only. Read once at
     * start. See {@link SandboxStateFile}.
     */
    public java.nio.file.Path stateFile() { return stateFile; }
    public SandboxConfig setStateFile(java.nio.file.Path file) { this.stateFile = file; return this; }

    /** true: the state file is loaded but never written (a look at the account beside the sandbox that owns it). */
    public boolean stateReadOnly() { return stateReadOnly; }
    public SandboxConfig setStateReadOnly(boolean readOnly) { this.stateReadOnly = readOnly; return this; }

    /** The interface spoken under /v1: {@code topup} (docs/provider.md) or {@code digiflazz} (docs/digiflazz.md). */
    public SandboxDialect dialect() { return dialect; }
    public SandboxConfig setDialect(SandboxDialect dialect) { this.dialect = java.util.Objects.requireNonNull(dialect); return this; }

    /** Digiflazz's {@code username}; in that dialect {@link #apiKey()} is Digiflazz's {@code key}. */
    public String username() { return username; }
    public SandboxConfig setUsername(String username) { this.username = requireText(username); return this; }

    /**
     * Digiflazz dialect: a ref_id sent again within this time after its transaction was made answers that
     * transaction (a status check); later it makes a new one, as Digiflazz documents for 90 days. Shorten it to
     * see that happen without waiting (or move the clock of {@link SandboxProvider#setClock}).
     */
    public Duration refIdReuseAfter() { return refIdReuseAfter; }
    public SandboxConfig setRefIdReuseAfter(Duration window) {
        if (window.isZero() || window.isNegative()) {
            throw new IllegalArgumentException("ref-id-reuse-after must be above 0");
        }
        this.refIdReuseAfter = window;
        return this;
    }

    /**
     * Digiflazz dialect: a full price list (no {@code code}) asked again within this time of the last one
     * answered is refused with rc 83, as Digiflazz limits it (once every 5 minutes: set {@code 5m}); 0, the
     * default, answers every one.
     */
    public Duration priceListInterval() { return priceListInterval; }
    public SandboxConfig setPriceListInterval(Duration interval) {
        this.priceListInterval = interval.isNegative() ? Duration.ZERO : interval;
        return this;
    }

    /** null: a random seed. */
    public Long seed() { return seed; }
    public SandboxConfig setSeed(Long seed) { this.seed = seed; return this; }
}
