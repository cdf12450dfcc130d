package org.topupbatch.settings;

import java.net.URI;
import java.nio.charset.Charset;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;
import org.quartz.CronExpression;
import org.topupbatch.settings.BalancePolicy;
import org.topupbatch.settings.PostgresUrlHint;

/**
 * Every {@code topup.*} setting, read once and checked at start-up, so that a bad value stops
 * the product with one line naming the setting instead of failing later in the middle of a batch.
 *
 * <p>Values come from a lookup that already applies the precedence docs/settings.md#settings documents
 * (environment over system property over application.properties).
 */
public record Settings(
        String baseUrl, String apiKey, String apiSecret,
        Path inbox, Path reports, Path data,
        Mode mode, String schedule,
        String webhookHost, int webhookPort, String webhookPath, String webhookSecret,
        Duration pendingTimeout, BalancePolicy balancePolicy,
        String dbUrl, String dbUser, String dbPassword,
        Duration connectTimeout, Duration responseTimeout,
        int submitConcurrency, String customerRules,
        String managementHost, int managementPort,
        // inbox and reports on an SFTP server: then inbox and reports above are local folders under data
        org.topupbatch.settings.SftpSettings sftp,
        // topup.input-charset (null: auto) and topup.report.charset (null: the batch's own)
        Charset inputCharset, Charset reportCharset,
        // topup.repeat-window: ZERO turns the repeat guard off
        Duration repeatWindow,
        // topup.price-tolerance in percent; topup.outage-wait and topup.outage-recheck
        java.math.BigDecimal priceTolerance, Duration outageWait, Duration outageRecheck,
        // topup.business-zone (the accountant's days) and topup.reconcile.schedule (Quartz form; null: off)
        java.time.ZoneId businessZone, String reconcileSchedule,
        // topup.notify.uris (Camel endpoint URIs; empty: none) and topup.notify.low-balance (IDR; null: none)
        java.util.List<String> notifyUris, Long notifyLowBalance,
        // the HTTP door for ERPs: topup.intake.token (null: none; required beyond loopback) and topup.intake.max-bytes
        String intakeToken, long intakeMaxBytes,
        // topup.report.formats: csv always, and xlsx too when listed
        boolean reportXlsx,
        // topup.dialect: how the provider's API is spelt (topup or digiflazz); topup.rate-limit: the
        // account's requests per minute when the provider cannot say (0: from its profile or tier)
        String dialect, int rateLimit,
        // topup.product-map (null: none) and the named accounts of topup.providers (empty: the one account
        // above); docs/accounts-and-dialects.md#several-accounts
        Path productMap, java.util.List<ProviderAccount> accounts,
        // the management port's login, allowed host names and open metrics (docs/security.md)
        ManagementLogin managementLogin,
        // topup.daily-limit: the account's requests per day when the provider cannot say (0: from its
        // profile, else 10,000); topup.rate-limit sets the minute's limit only
        long dailyLimit,
        // the outbox: callbacks to the ERP and the back-off of every outgoing message (docs/callbacks.md)
        CallbackSettings callbacks) {

    /** The provider dialects there are (topup.dialect). */
    public static final java.util.List<String> DIALECTS = java.util.List.of("topup", "digiflazz");

    public enum Mode { WATCH, ONCE }

    /** The secrets (api, webhook) and the database password are never shown. */
    @Override
    public String toString() {
        return "Settings[baseUrl=" + (embeddedSandbox() ? "(embedded sandbox)" : baseUrl) + ", apiKey=" + apiKey
                + ", inbox=" + inboxShown() + ", reports=" + reportsShown() + ", data=" + data + ", mode=" + mode
                + ", schedule=" + (schedule == null ? "" : schedule) + ", webhook=" + webhookHost + ":" + webhookPort
                + webhookPath + ", pendingTimeout=" + pendingTimeout + ", balancePolicy=" + balancePolicy
                + ", db=" + (dbUrl == null ? "(embedded H2)" : dbUrl)
                + ", management=" + (managementEnabled() ? managementHost + ":" + managementPort : "off")
                + (accounts.isEmpty() ? "" : ", accounts=" + accounts.stream().map(ProviderAccount::name).toList()) + "]";
    }

    /** The inbox as the operator gave it: the SFTP folder (without secrets) or the local path. */
    public String inboxShown() {
        return sftp.inbox() != null ? sftp.inbox().toString() : inbox.toAbsolutePath().toString();
    }

    /** The reports folder as the operator gave it: the SFTP folder (without secrets) or the local path. */
    public String reportsShown() {
        return sftp.reports() != null ? sftp.reports().toString() : reports.toAbsolutePath().toString();
    }

    /** No provider is set at all: neither topup.base-url nor named accounts. */
    public boolean embeddedSandbox() {
        return baseUrl == null && accounts.isEmpty();
    }

    /**
     * Whether {@code reconcile} and the daily reconciliation run: when every account can be reconciled,
     * each on its own, by its history or, a named account without one, by a status check of each of the
     * journal's orders (docs/reconcile.md#reconcile-with-the-provider).
     */
    public boolean reconcilable() {
        return AccountList.of(this).stream().allMatch(AccountList::reconcilable);
    }

    public boolean webhookEnabled() {
        return webhookPort != 0;
    }

    /**
     * With several accounts, the path account {@code name}'s webhooks are posted to: topup.webhook.path
     * followed by /NAME (one slash, whether the path ends with one or not).
     */
    public String accountWebhookPath(String name) {
        return (webhookPath.endsWith("/") ? webhookPath.substring(0, webhookPath.length() - 1) : webhookPath) + "/" + name;
    }

    /** The dashboard, /observe/health and /observe/metrics (docs/operating.md#dashboard-health-and-metrics). */
    public boolean managementEnabled() {
        return managementPort != 0;
    }

    /** Reads and checks every setting; throws {@link SettingsException} naming the first bad one. */
    public static Settings load(Function<String, String> lookup) {
        Reader r = new Reader(lookup);
        java.util.List<ProviderAccount> accounts = ProviderAccounts.load(r::optional);
        if (!accounts.isEmpty()) {
            r.noSingleAccount();
        }
        String baseUrl = r.optional("topup.base-url");
        if (baseUrl != null) {
            baseUrl = checkUrl("topup.base-url", baseUrl);
        }
        ProviderChoice provider = ProviderChoice.of(baseUrl, r.optional("topup.api-key"), r.optional("topup.api-secret"));
        org.topupbatch.settings.SftpSettings sftp = org.topupbatch.settings.SftpSettings.load(r::optional);
        Path data = r.path("topup.data", "data");
        return new Settings(
                provider.baseUrl(),
                provider.apiKey(),
                provider.apiSecret(),
                sftp.inbox() != null ? org.topupbatch.settings.SftpSettings.localInbox(data) : r.path("topup.inbox", "inbox"),
                sftp.reports() != null ? org.topupbatch.settings.SftpSettings.reportsOutbox(data) : r.path("topup.reports", "reports"),
                data,
                r.mode(),
                r.schedule(),
                r.text("topup.webhook.host", "0.0.0.0"),
                r.port("topup.webhook.port", 8085),
                r.webhookPath(),
                r.optional("topup.webhook.secret"),
                r.duration("topup.pending-timeout", "30m", Duration.ofSeconds(1)),
                r.balancePolicy(),
                r.dbUrl(),
                r.optional("topup.db.user"),
                r.optional("topup.db.password"),
                r.duration("topup.http.connect-timeout", "5s", Duration.ofMillis(100)),
                r.duration("topup.http.response-timeout", "30s", Duration.ofMillis(100)),
                r.integer("topup.submit.concurrency", 16, 1, 256),
                r.optional("topup.customer-rules"),
                r.text("topup.management.host", "127.0.0.1"),
                r.managementPort(),
                sftp,
                r.charset("topup.input-charset"),
                r.charset("topup.report.charset"),
                r.repeatWindow(),
                r.priceTolerance(),
                r.duration("topup.outage-wait", "30m", Duration.ofSeconds(1)),
                r.duration("topup.outage-recheck", "1m", Duration.ofSeconds(1)),
                r.businessZone(),
                r.reconcileSchedule(),
                r.notifyUris(),
                r.notifyLowBalance(),
                r.optional("topup.intake.token"),
                r.integer("topup.intake.max-bytes", 52_428_800, 1_024, Integer.MAX_VALUE),
                r.reportXlsx(),
                r.dialect(provider),
                r.integer("topup.rate-limit", 0, 0, 100_000),
                r.productMap(accounts),
                accounts,
                ManagementLogin.load(r::optional),
                r.integer("topup.daily-limit", 0, 0, Integer.MAX_VALUE),
                CallbackSettings.load(r::optional));
    }

    /** An endpoint URI as it may be shown: its passwords and tokens masked. */
    public static String shownUri(String uri) {
        return org.apache.camel.util.URISupport.sanitizeUri(uri);
    }

    static String checkUrl(String key, String value) {
        try {
            URI uri = URI.create(value);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                throw new SettingsException(key + ": '" + value + "' is not an http:// or https:// address");
            }
        } catch (IllegalArgumentException e) {
            throw new SettingsException(key + ": '" + value + "' is not an http:// or https:// address");
        }
        return value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
    }

    /**
     * Turns a five-field Unix cron into Quartz's form, which has seconds, a '?' day field and
     * numbers its weekdays from 1 = Sunday (Unix: 0 or 7 = Sunday).
     */
    static String toQuartzCron(String cron) {
        String[] f = cron.trim().split("\\s+");
        if (f.length == 5) {
            String dom = f[2];
            String dow = java.util.regex.Pattern.compile("(?<!/)\\d+").matcher(f[4])
                    .replaceAll(m -> Integer.toString(Integer.parseInt(m.group()) % 7 + 1));
            if (dow.equals("*")) {
                dow = "?";
            } else if (dom.equals("*")) {
                dom = "?";
            }
            return String.join(" ", "0", f[0], f[1], dom, f[3], dow);
        }
        return String.join(" ", f);
    }

    /** Reads raw values and turns each bad one into a {@link SettingsException} naming it. */
    private static final class Reader {
        private final Function<String, String> lookup;

        Reader(Function<String, String> lookup) {
            this.lookup = lookup;
        }

        String optional(String key) {
            String v = lookup.apply(key);
            return v == null || v.isBlank() ? null : v.trim();
        }

        String text(String key, String dflt) {
            String v = optional(key);
            return v == null ? dflt : v;
        }

        Path path(String key, String dflt) {
            String v = text(key, dflt);
            try {
                return Path.of(v);
            } catch (InvalidPathException e) {
                throw new SettingsException(key + ": '" + v + "' is not a usable folder name");
            }
        }

        String dialect(ProviderChoice provider) {
            String v = optional("topup.dialect");
            if (v == null) {
                return "topup";
            }
            String name = v.toLowerCase(java.util.Locale.ROOT);
            if (!DIALECTS.contains(name)) {
                throw new SettingsException("topup.dialect: '" + v + "' is not a dialect we speak (" + String.join(", ", DIALECTS) + ")");
            }
            if (!name.equals("topup") && provider.baseUrl() == null) {
                // the embedded sandbox speaks the default dialect only; a sandbox of another dialect runs on its own
                throw new SettingsException("topup.dialect=" + name + " needs topup.base-url (and the account's "
                        + "username in topup.api-key, its API key in topup.api-secret)");
            }
            return name;
        }

        /**
         * With topup.providers the single account's settings are not used: one set beside it would leave
         * the operator guessing which account orders, so it stops the start.
         */
        void noSingleAccount() {
            for (String key : java.util.List.of("topup.base-url", "topup.api-key", "topup.api-secret")) {
                if (optional(key) != null) {
                    throw new SettingsException("topup.providers and " + key + " are both set: use one or the other"
                            + " (the named accounts' topup.provider.NAME.* settings, or the one account of topup.base-url)");
                }
            }
            String dialect = optional("topup.dialect");
            if (dialect != null && !dialect.equalsIgnoreCase("topup")) {
                throw new SettingsException("topup.dialect: with topup.providers each account has its own"
                        + " (topup.provider.NAME.dialect); leave topup.dialect unset");
            }
            String rate = optional("topup.rate-limit");
            if (rate != null && !rate.equals("0")) {
                throw new SettingsException("topup.rate-limit: with topup.providers each account has its own"
                        + " (topup.provider.NAME.rate-limit); leave topup.rate-limit at 0");
            }
        }

        /** topup.product-map: a file name, checked to be one; its content is read where the accounts are used. */
        Path productMap(java.util.List<ProviderAccount> accounts) {
            String v = optional("topup.product-map");
            if (v == null) {
                return null;
            }
            if (accounts.isEmpty()) {
                throw new SettingsException("topup.product-map is set but topup.providers is not: the map names"
                        + " accounts of topup.providers");
            }
            try {
                return Path.of(v);
            } catch (InvalidPathException e) {
                throw new SettingsException("topup.product-map: '" + v + "' is not a usable file name");
            }
        }

        int integer(String key, int dflt, int min, int max) {
            String v = optional(key);
            if (v == null) {
                return dflt;
            }
            try {
                int n = Integer.parseInt(v);
                if (n < min || n > max) {
                    throw new SettingsException(key + ": " + n + " is outside " + min + ".." + max);
                }
                return n;
            } catch (NumberFormatException e) {
                throw new SettingsException(key + ": '" + v + "' is not a whole number");
            }
        }

        int port(String key, int dflt) {
            return integer(key, dflt, 0, 65535);
        }

        /** Its own port: Camel's management server and the webhook server cannot share one. */
        int managementPort() {
            int port = port("topup.management.port", 8086);
            if (port != 0 && port == port("topup.webhook.port", 8085)) {
                throw new SettingsException("topup.management.port: " + port + " is also topup.webhook.port;"
                        + " give the dashboard its own port (or 0 to turn it off)");
            }
            return port;
        }

        Duration duration(String key, String dflt, Duration min) {
            String raw = text(key, dflt);
            Duration d = DurationSetting.parse(key, raw);
            if (d.compareTo(min) < 0) {
                throw new SettingsException(key + ": '" + raw + "' is too short (at least " + min.toMillis() + "ms)");
            }
            return d;
        }

        /** A time as other durations, or 0 (any unit) to turn the repeat guard off. */
        Duration repeatWindow() {
            String raw = text("topup.repeat-window", "24h");
            if (raw.trim().equals("0")) {
                return Duration.ZERO;
            }
            try {
                return DurationSetting.parse("topup.repeat-window", raw);
            } catch (SettingsException e) {
                throw new SettingsException("topup.repeat-window: '" + raw
                        + "' is not a time such as 30m, 24h or 7d (0 turns the repeat guard off)");
            }
        }

        /** {@code 10%} (the {@code %} may be left out): how far a price may rise above the one a row was accepted at. */
        java.math.BigDecimal priceTolerance() {
            String raw = text("topup.price-tolerance", "10%");
            String number = raw.trim().endsWith("%") ? raw.trim().substring(0, raw.trim().length() - 1).trim() : raw.trim();
            try {
                java.math.BigDecimal percent = new java.math.BigDecimal(number);
                if (percent.signum() < 0 || percent.compareTo(java.math.BigDecimal.valueOf(1000)) > 0) {
                    throw new NumberFormatException();
                }
                return percent;
            } catch (NumberFormatException e) {
                throw new SettingsException("topup.price-tolerance: '" + raw
                        + "' is not a percentage from 0% to 1000% such as 10% (0% sends nothing dearer than when accepted)");
            }
        }

        Mode mode() {
            String v = text("topup.mode", "watch");
            return switch (v.toLowerCase(Locale.ROOT)) {
                case "watch" -> Mode.WATCH;
                case "once" -> Mode.ONCE;
                default -> throw new SettingsException("topup.mode: '" + v + "' is neither watch nor once");
            };
        }

        String schedule() {
            String v = optional("topup.schedule");
            if (v == null) {
                return null;
            }
            String quartz = toQuartzCron(v);
            if (!CronExpression.isValidExpression(quartz)) {
                throw new SettingsException("topup.schedule: '" + v
                        + "' is not a cron expression (e.g. '0 2 * * *' for 02:00 every night)");
            }
            return quartz;
        }

        /**
         * Camel endpoint URIs, comma-separated; a comma inside a URI (smtp's {@code to=a@x,b@y}) stays,
         * since only a comma followed by another scheme starts the next one.
         */
        java.util.List<String> notifyUris() {
            String v = optional("topup.notify.uris");
            if (v == null) {
                return java.util.List.of();
            }
            java.util.List<String> uris = new java.util.ArrayList<>();
            for (String uri : v.split(",(?=\\s*[A-Za-z][A-Za-z0-9+.-]*:)")) {
                String u = uri.trim();
                if (!u.matches("[A-Za-z][A-Za-z0-9+.-]*:.+")) {
                    throw new SettingsException("topup.notify.uris: '" + org.topupbatch.settings.Settings.shownUri(u)
                            + "' is not an endpoint address such as smtp://mail.example.com:587?to=ops@example.com,"
                            + " telegram:bots?chatId=... or https://erp.example.com/topup-events");
                }
                uris.add(u);
            }
            return java.util.List.copyOf(uris);
        }

        boolean reportXlsx() {
            String v = text("topup.report.formats", "csv").toLowerCase(java.util.Locale.ROOT).replace(" ", "");
            if (v.equals("csv")) {
                return false;
            }
            if (v.equals("csv,xlsx") || v.equals("xlsx,csv") || v.equals("xlsx")) {
                return true;
            }
            throw new SettingsException("topup.report.formats: '" + v + "' is not csv or csv,xlsx (the CSV result is"
                    + " always written; xlsx adds NAME.result.xlsx)");
        }

        Long notifyLowBalance() {
            String v = optional("topup.notify.low-balance");
            if (v == null) {
                return null;
            }
            String digits = v.replace(".", "").replace("_", "").replaceFirst("^(?i)rp\\s*", "");
            if (!digits.matches("\\d{1,15}")) {
                throw new SettingsException("topup.notify.low-balance: '" + v + "' is not an amount in rupiah such as 500000");
            }
            return Long.parseLong(digits);
        }

        /** The zone whose calendar days reconciliation closes; default Asia/Jakarta (WIB). */
        java.time.ZoneId businessZone() {
            String v = text("topup.business-zone", "Asia/Jakarta");
            try {
                return java.time.ZoneId.of(v);
            } catch (java.time.DateTimeException e) {
                throw new SettingsException("topup.business-zone: '" + v + "' is not a time zone (e.g. Asia/Jakarta,"
                        + " Asia/Makassar, Asia/Jayapura, UTC)");
            }
        }

        /** A cron in the business zone; default 00:30 every day; empty turns the daily reconciliation off. */
        String reconcileSchedule() {
            String v = lookup.apply("topup.reconcile.schedule");
            if (v == null) {
                v = "30 0 * * *";
            }
            if (v.isBlank()) {
                return null;
            }
            String quartz = toQuartzCron(v);
            if (!CronExpression.isValidExpression(quartz)) {
                throw new SettingsException("topup.reconcile.schedule: '" + v
                        + "' is not a cron expression (e.g. '30 0 * * *' for 00:30 every day; empty turns it off)");
            }
            return quartz;
        }

        String webhookPath() {
            String v = text("topup.webhook.path", "/webhook");
            if (!v.matches("/[A-Za-z0-9._~/-]*")) {
                throw new SettingsException("topup.webhook.path: '" + v + "' must start with / and hold only letters, digits and - . _ ~ /");
            }
            return v;
        }

        /** A libpq {@code postgres://} URL is a common slip: say which JDBC URL to give instead. */
        String dbUrl() {
            String v = optional("topup.db.url");
            PostgresUrlHint.forUrl("topup.db.url", v).ifPresent(hint -> {
                throw new SettingsException(hint);
            });
            return v;
        }

        /** A charset name Java knows, or {@code auto} (also unset): null. */
        Charset charset(String key) {
            String v = optional(key);
            if (v == null || v.trim().equalsIgnoreCase("auto")) {
                return null;
            }
            try {
                return Charset.forName(v.trim());
            } catch (IllegalArgumentException e) {
                throw new SettingsException(key + ": '" + v + "' is not a character set this Java knows"
                        + " (use auto, UTF-8, UTF-16LE, UTF-16BE or windows-1252)");
            }
        }

        BalancePolicy balancePolicy() {
            String v = text("topup.balance-policy", "best-effort");
            return BalancePolicy.parse(v).orElseThrow(() -> new SettingsException(
                    "topup.balance-policy: '" + v + "' is neither best-effort nor all-or-nothing"));
        }
    }
}
