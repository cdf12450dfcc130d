package org.topupbatch.campaign;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.LostAnswerMode;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxDialect;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.sandbox.SandboxTier;
import org.topupbatch.testing.Poll;

/**
 * The crash campaign across two accounts (docs/accounts-and-dialects.md#several-accounts): the built jar, in {@code once}
 * mode on the H2 journal, orders small seeded batches ({@link CampaignBatch}) across {@code main} (a
 * sandbox of the default dialect) and {@code dfz} (a sandbox speaking Digiflazz), both misbehaving
 * (latency, async orders, lost answers, injected 500s, duplicate webhooks). A product map sends two
 * products to dfz first (so that a refusal there moves them to main as REF-F2); the others go to
 * main first. At seeded moments of each run products go down at main (and now and then at dfz) and
 * come back: before the run (rows routed to the other account at intake), or while it sends (the
 * account refuses create-order, no order, and the row moves to its next account as REF-F2); now and
 * then main's balance runs short for a while (INSUFFICIENT_BALANCE moves its rows on too), or an
 * account cannot be reached for a while ({@link AccountsGate}: a refused connection moves rows on, a
 * cut one leaves an unknown outcome that must stay at its account). The jar
 * is SIGKILLed at seeded moments (a random time, shortly after a product went down, or one of the
 * product's crash points) and started again; small batches keep arriving. When the kills are spent,
 * everything comes back up and one last run finishes; {@link AccountsLedgerAudit} then checks both
 * ledgers against the inputs and the reports. Everything random derives from the seed.
 */
final class AccountsCrashCampaign {

    static final String MAIN = "main";
    static final String DFZ = "dfz";
    private static final Duration RUN_LIMIT = Duration.ofMinutes(3);
    /** Products that go down at main: dfz takes them (the first four main-first, GI60 is refused at dfz: no zone field). */
    static final List<String> DOWN_AT_MAIN = List.of("TSEL10", "FF100", "ML86", "XL10", "STEAM45K", "GI60");
    /** Products that go down at dfz: the two the map sends there first (PUBG60, GP20K), and TSEL10 (then down at both). */
    static final List<String> DOWN_AT_DFZ = List.of("PUBG60", "GP20K", "TSEL10");
    static final String PRODUCT_MAP = "product,provider,sku\n"
            + "PUBG60,dfz,PUBG60\nPUBG60,main,PUBG60\nGP20K,dfz,GP20K\nGP20K,main,GP20K\n";
    /** Digiflazz's API key of the dfz sandbox: a secret, never to be logged (distinct from main's public api key). */
    static final String DFZ_KEY = "dfz-key-9Qw3Zt";

    record Figures(long seed, int kills, int runs, int batches, int rows, Map<String, Integer> killsByMoment,
                   Map<String, Integer> moves, Map<String, Long> createOrders, AccountsLedgerAudit.Figures audit,
                   Duration took, List<String> anomalies) {

        String describe() {
            return String.format("accounts crash campaign (main + dfz) on H2, seed %d: %d kills survived in %d runs %s;"
                            + " moves %s; %d batches, %d rows; orders per account %s (under REF-F2: %s);"
                            + " create-order requests %s; rows reported %s, %d moved to the fallback account,"
                            + " %d accepted rows without an order; %d anomalies; %d s",
                    seed, kills, runs, killsByMoment, moves, batches, rows, audit == null ? "?" : audit.ordersByAccount(),
                    audit == null ? "?" : audit.fallbackOrders(), createOrders, audit == null ? "?" : audit.rowsByStatus(),
                    audit == null ? 0 : audit.movedRows(), audit == null ? 0 : audit.unorderedRows(), anomalies.size(),
                    took.toSeconds());
        }
    }

    /**
     * A change of a sandbox's knob ({@code unavailable}, {@code balance}) or of its {@link AccountsGate}
     * ({@code gate}: {@code shut} or {@code open}), {@code atMillis} after the
     * run's first create-order at either account (-1: before the run starts).
     */
    private record Move(String account, String knob, String value, long atMillis) {

        boolean down() {
            return switch (knob) {
                case "unavailable" -> !value.isEmpty();
                case "balance" -> !value.equals(FULL_BALANCE);
                default -> value.equals("shut");
            };
        }

        @Override
        public String toString() {
            String what = switch (knob) {
                case "unavailable" -> down() ? " down " + value : " all up";
                case "balance" -> down() ? " balance down to " + value : " balance back";
                default -> down() ? " unreachable" : " reachable again";
            };
            return account + what + (atMillis < 0 ? " before the run" : " at " + atMillis + " ms");
        }
    }

    static final String FULL_BALANCE = "10000000";

    private final long seed;
    private final int killTarget;
    private final Path home;

    AccountsCrashCampaign(long seed, int killTarget, Path home) {
        this.seed = seed;
        this.killTarget = killTarget;
        this.home = home;
    }

    static SandboxConfig misbehaving(long seed, SandboxDialect dialect) {
        return SandboxConfig.defaults().setSeed(seed).setTier(SandboxTier.GOLD).setDialect(dialect)
                .setLatency(DurationRange.of(Duration.ofMillis(5), Duration.ofMillis(150)))
                .setSettleDelay(DurationRange.of(Duration.ofMillis(200), Duration.ofMillis(1500)))
                .setLostAnswerRate(0.1).setLostAnswerMode(LostAnswerMode.MIXED).setErrorRate(0.05)
                .setWebhookDuplicateRate(0.2);
    }

    Figures run() throws Exception {
        long started = System.nanoTime();
        Random random = new Random(seed);
        List<CampaignBatch> batches = new ArrayList<>();
        Map<String, Integer> byMoment = new TreeMap<>();
        Map<String, Integer> moves = new TreeMap<>();
        List<String> anomalies = new ArrayList<>();
        int kills = 0;
        try (SandboxProvider main = SandboxProvider.start(misbehaving(seed, SandboxDialect.TOPUP), 0);
             SandboxProvider dfz = SandboxProvider.start(misbehaving(seed + 1, SandboxDialect.DIGIFLAZZ)
                     .setApiKey(DFZ_KEY), 0);
             AccountsGate mainGate = new AccountsGate(main.port());
             AccountsGate dfzGate = new AccountsGate(dfz.port())) {
            Map<String, SandboxProvider> sandboxes = new LinkedHashMap<>();
            sandboxes.put(MAIN, main);
            sandboxes.put(DFZ, dfz);
            Map<String, AccountsGate> gates = Map.of(MAIN, mainGate, DFZ, dfzGate);
            ProductProcess product = new ProductProcess(Files.createDirectories(home), main.baseUrl());
            configure(product, main, dfz, mainGate, dfzGate);
            boolean lastRunFinished = true;
            while (kills < killTarget && product.runs() < killTarget * 4) {
                if (lastRunFinished || random.nextBoolean()) {
                    CampaignBatch batch = CampaignBatch.generate("accounts-" + (batches.size() + 1) + ".csv",
                            "A" + (batches.size() + 1) + "-", 10 + random.nextInt(16), random);
                    product.drop(batch.fileName(), batch.content());
                    batches.add(batch);
                }
                List<Move> plan = product.runs() == 0 ? firstPlan(batches.get(0), random) : plan(random, main.balance() < 1_000_000);
                String moment = nextKill(random, plan);
                boolean atPoint = !moment.contains("@");
                for (Move m : plan) {
                    moves.merge(m.toString().replaceAll(" at \\d+ ms| to \\d+", ""), 1, Integer::sum);
                    if (m.atMillis() < 0) {
                        sandboxes.get(m.account()).config().set(m.knob(), m.value());
                    }
                }
                long requestsBefore = requests(sandboxes);
                Mover mover = new Mover(sandboxes, gates, plan, createOrders(sandboxes));
                product.start(atPoint ? moment : null);
                mover.start();
                Poll.atMost(RUN_LIMIT, () -> requests(sandboxes), n -> n != requestsBefore || !product.alive());
                long firstRequest = System.nanoTime();
                if (!atPoint) {
                    long at = Long.parseLong(moment.substring(moment.indexOf('@') + 1, moment.length() - 2));
                    if (moment.startsWith("down")) {
                        // shortly after something went down: a refusal, a move to the next account under way
                        Poll.atMost(RUN_LIMIT, () -> mover.firstDownAt, t -> t != 0 || !product.alive());
                        product.waitOrKillAfter(Duration.ofMillis(at));
                    } else {
                        long left = at - (System.nanoTime() - firstRequest) / 1_000_000;
                        product.waitOrKillAfter(Duration.ofMillis(Math.max(0, left)));
                    }
                }
                int exit = product.await(RUN_LIMIT);
                mover.interrupt();
                mover.join();
                System.out.println("  run " + product.runs() + " (" + moment + ", moves " + plan + "): exit " + exit);
                if (exit == ProductProcess.KILLED) {
                    kills++;
                    byMoment.merge(atPoint ? moment.substring(0, moment.indexOf(':'))
                            : moment.startsWith("down") ? "just after something went down" : "random time", 1, Integer::sum);
                    lastRunFinished = false;
                } else if (exit == 0) {
                    lastRunFinished = true;
                } else {
                    anomalies.add("run " + product.runs() + " exited with " + exit + " instead of 0:\n" + product.output());
                    break;
                }
            }
            // everything comes back: the last run finishes every batch
            main.config().set("unavailable", "");
            dfz.config().set("unavailable", "");
            main.config().set("balance", FULL_BALANCE);
            product.start(null);
            int exit = product.await(RUN_LIMIT);
            System.out.println("  run " + product.runs() + " (last): exit " + exit);
            if (exit != 0) {
                anomalies.add("the final run exited with " + exit + " instead of 0:\n" + product.output());
            }
            if (Boolean.getBoolean("campaign.plant-double")) {
                // the audit's own check, end to end: a second order for a row main has ordered, at dfz as REF-F2
                main.ledger().stream().filter(e -> e.status().equals("success")).findFirst().ifPresent(e -> {
                    System.out.println("  planted: " + e.refId() + "-F2 at dfz, beside " + e.refId() + " at main");
                    dfz.foreignOrder(e.refId() + "-F2", e.productSku(), e.customerNo(), e.customerNoZone());
                });
            }
            Map<String, List<LedgerEntry>> ledgers = new LinkedHashMap<>();
            ledgers.put(MAIN, main.ledger());
            ledgers.put(DFZ, dfz.ledger());
            Map<String, AccountsLedgerAudit.Report> reports = AccountsLedgerAudit.readReports(product.reports, batches, anomalies);
            AccountsLedgerAudit.Result audit = AccountsLedgerAudit.check(batches, ledgers, reports);
            anomalies.addAll(audit.anomalies());
            checkFolders(product, batches, anomalies);
            Map<String, Long> createOrders = new LinkedHashMap<>();
            sandboxes.forEach((name, sandbox) -> {
                var stats = sandbox.stats();
                createOrders.put(name, stats.requestsPerOperation().getOrDefault("create-order", 0L));
                int limit = sandbox.config().tier().limitPerMinute();
                if (stats.rateLimited() != 0) {
                    anomalies.add(name + " answered 429 (rate limit) " + stats.rateLimited() + " times");
                }
                if (stats.busiestWindow() > limit) {
                    anomalies.add(name + "'s busiest 60 s window held " + stats.busiestWindow() + " requests, over its limit " + limit);
                }
            });
            anomalies.addAll(secretsInLogs(product, List.of(main.config().apiSecret(), DFZ_KEY)));
            if (!anomalies.isEmpty()) {
                System.out.println("---- the runs' output, for the anomalies:\n" + product.allOutput());
            }
            int rows = batches.stream().mapToInt(CampaignBatch::rows).sum();
            return new Figures(seed, kills, product.runs(), batches.size(), rows, byMoment, moves, createOrders,
                    audit.figures(), Duration.ofNanos(System.nanoTime() - started), anomalies);
        }
    }

    /** The two accounts instead of ProductProcess's single one, webhooks from both (every webhook a hint). */
    private void configure(ProductProcess product, SandboxProvider main, SandboxProvider dfz, AccountsGate mainGate,
                           AccountsGate dfzGate) throws IOException {
        for (String single : List.of("TOPUP_BASE_URL", "TOPUP_API_KEY", "TOPUP_API_SECRET", "TOPUP_WEBHOOK_SECRET")) {
            product.env.remove(single);
        }
        Path map = home.resolve("product-map.csv");
        Files.writeString(map, PRODUCT_MAP, StandardCharsets.UTF_8);
        twoAccounts(product.env, mainGate.baseUrl(), main, dfzGate.baseUrl(), dfz, map);
        main.config().setWebhookUrl(product.webhookUrl());
        dfz.config().setWebhookUrl(product.webhookUrl());
    }

    /**
     * A node's settings for the accounts main (default dialect) and dfz (Digiflazz: its username as the
     * key, 300 a minute), reached at {@code mainUrl} and {@code dfzUrl}, routed by the product map {@code map}.
     */
    static void twoAccounts(java.util.Map<String, String> env, String mainUrl, SandboxProvider main, String dfzUrl,
            SandboxProvider dfz, Path map) {
        env.put("TOPUP_PROVIDERS", MAIN + "," + DFZ);
        env.put("TOPUP_PROVIDER_MAIN_BASE_URL", mainUrl);
        env.put("TOPUP_PROVIDER_MAIN_API_KEY", main.config().apiKey());
        env.put("TOPUP_PROVIDER_MAIN_API_SECRET", main.config().apiSecret());
        env.put("TOPUP_PROVIDER_DFZ_DIALECT", "digiflazz");
        env.put("TOPUP_PROVIDER_DFZ_BASE_URL", dfzUrl);
        env.put("TOPUP_PROVIDER_DFZ_API_KEY", dfz.config().username());
        env.put("TOPUP_PROVIDER_DFZ_API_SECRET", dfz.config().apiKey());
        env.put("TOPUP_PROVIDER_DFZ_RATE_LIMIT", "300");
        env.put("TOPUP_PRODUCT_MAP", map.toString());
    }

    /**
     * This run's changes: three runs in four something goes down at main (before the run, or during
     * its first 3 s of sending) and half of those come back up a little later; one run in three the
     * same at dfz, mostly for the products it sells first; one run in six main's balance drops to a
     * few orders' worth during the run (INSUFFICIENT_BALANCE: its rows move to dfz, and a dfz-first
     * row moved to main stops its batch there) and half of those get it back; a balance still short
     * from an earlier run comes back before the run half of the time. One run in five main cannot be
     * reached for a while (its rows move to dfz; what was on the wire is an unknown outcome), one in
     * eight dfz; an account is always reachable again within the run (a start needs both).
     */
    private static List<Move> plan(Random random, boolean mainShort) {
        List<Move> plan = new ArrayList<>();
        if (random.nextBoolean() && mainShort) {
            plan.add(new Move(MAIN, "balance", FULL_BALANCE, -1));
        }
        if (random.nextInt(4) != 0) {
            plan.addAll(downAndUp(MAIN, DOWN_AT_MAIN, random));
        } else if (random.nextBoolean()) {
            plan.add(new Move(MAIN, "unavailable", "", random.nextInt(3000)));
        }
        if (random.nextInt(3) == 0) {
            plan.addAll(downAndUp(DFZ, DOWN_AT_DFZ, random));
        }
        if (random.nextInt(6) == 0) {
            long at = random.nextInt(3000);
            plan.add(new Move(MAIN, "balance", Integer.toString(20_000 + random.nextInt(40_000)), at));
            if (random.nextBoolean()) {
                plan.add(new Move(MAIN, "balance", FULL_BALANCE, at + 300 + random.nextInt(2500)));
            }
        }
        for (String account : List.of(MAIN, DFZ)) {
            if (random.nextInt(account.equals(MAIN) ? 5 : 8) == 0) {
                long at = random.nextInt(3000);
                plan.add(new Move(account, "gate", "shut", at));
                plan.add(new Move(account, "gate", "open", at + 300 + random.nextInt(2500)));
            }
        }
        return plan;
    }

    /**
     * The first run always sees a product go down at main while it sends: the product of the first
     * batch's last row that main sells first (still queued then), soon after the first create-order,
     * back up a few seconds later.
     */
    private static List<Move> firstPlan(CampaignBatch batch, Random random) {
        long at = random.nextInt(600);
        String[] lines = batch.content().split("\n");
        for (int i = lines.length - 1; i > 0; i--) {
            String[] fields = lines[i].split(",");
            String sku = fields[1];
            if (DOWN_AT_MAIN.contains(sku) && !sku.equals("GI60") && Boolean.TRUE.equals(batch.acceptedByRef().get(fields[0]))) {
                return List.of(new Move(MAIN, "unavailable", sku, at),
                        new Move(MAIN, "unavailable", "", at + 2000 + random.nextInt(2000)));
            }
        }
        return plan(random, false);
    }

    private static List<Move> downAndUp(String account, List<String> products, Random random) {
        List<String> down = new ArrayList<>(products);
        java.util.Collections.shuffle(down, random);
        String value = String.join(",", down.subList(0, 1 + random.nextInt(2)));
        long at = random.nextInt(4) == 0 ? -1 : random.nextInt(3000);
        List<Move> moves = new ArrayList<>(List.of(new Move(account, "unavailable", value, at)));
        if (random.nextBoolean()) {
            moves.add(new Move(account, "unavailable", "", Math.max(0, at) + 300 + random.nextInt(2500)));
        }
        return moves;
    }

    /**
     * Applies a run's moves at their times from the run's first create-order (or 15 s after its start,
     * when none comes); interrupted when the run ends. Notes when the first thing went down.
     */
    private static final class Mover extends Thread {
        private final Map<String, SandboxProvider> sandboxes;
        private final Map<String, AccountsGate> gates;
        private final List<Move> plan;
        private final long ordersBefore;
        volatile long firstDownAt;

        Mover(Map<String, SandboxProvider> sandboxes, Map<String, AccountsGate> gates, List<Move> plan, long ordersBefore) {
            super("moves");
            setDaemon(true);
            this.sandboxes = sandboxes;
            this.gates = gates;
            this.plan = plan.stream().filter(m -> m.atMillis() >= 0).sorted(java.util.Comparator.comparingLong(Move::atMillis)).toList();
            this.ordersBefore = ordersBefore;
        }

        @Override
        public void run() {
            try {
                long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
                while (createOrders(sandboxes) == ordersBefore && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                long sending = System.nanoTime();
                for (Move m : plan) {
                    long wait = m.atMillis() - (System.nanoTime() - sending) / 1_000_000;
                    if (wait > 0) {
                        Thread.sleep(wait);
                    }
                    if (m.knob().equals("gate")) {
                        if (m.down()) {
                            gates.get(m.account()).shut();
                        } else {
                            gates.get(m.account()).open();
                        }
                    } else {
                        sandboxes.get(m.account()).config().set(m.knob(), m.value());
                    }
                    if (m.down() && firstDownAt == 0) {
                        firstDownAt = System.nanoTime();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                // the next start asks every account first: none stays unreachable past its run
                gates.values().forEach(AccountsGate::open);
            }
        }
    }

    /**
     * {@code point:n} for one of the product's crash points, {@code random@<ms>ms} for a kill at a
     * random time after the run's first request, {@code down@<ms>ms} that long after something first
     * went down during the run.
     */
    private static String nextKill(Random random, List<Move> plan) {
        boolean down = plan.stream().anyMatch(m -> m.atMillis() >= 0 && m.down());
        int dice = random.nextInt(6);
        if (down && dice < 2) {
            return "down@" + random.nextInt(1200) + "ms";
        }
        if (dice < 4) {
            String point = CrashCampaign.CRASH_POINTS.get(random.nextInt(CrashCampaign.CRASH_POINTS.size()));
            return point + ":" + (point.startsWith("intake") ? 1 : 1 + random.nextInt(3));
        }
        return "random@" + random.nextInt(6000) + "ms";
    }

    private static long createOrders(Map<String, SandboxProvider> sandboxes) {
        return sandboxes.values().stream().mapToLong(s -> s.stats().requestsPerOperation().getOrDefault("create-order", 0L)).sum();
    }

    private static long requests(Map<String, SandboxProvider> sandboxes) {
        return sandboxes.values().stream().mapToLong(s -> s.stats().totalRequests()).sum();
    }

    /** Every batch left the inbox and is archived once; reports/ holds only complete reports. */
    private static void checkFolders(ProductProcess product, List<CampaignBatch> batches, List<String> anomalies) throws IOException {
        try (Stream<Path> files = Files.list(product.inbox)) {
            files.forEach(p -> anomalies.add("the inbox still holds " + p.getFileName()));
        }
        try (Stream<Path> files = Files.list(product.reports)) {
            files.map(p -> p.getFileName().toString())
                    .filter(n -> !n.endsWith(".result.csv") && !n.endsWith(".summary.json"))
                    .forEach(n -> anomalies.add("reports/ holds " + n + ", which is not a report (half-written?)"));
        }
        List<String> archived;
        try (Stream<Path> files = Files.exists(product.archive) ? Files.list(product.archive) : Stream.empty()) {
            archived = files.map(p -> p.getFileName().toString()).toList();
        }
        for (CampaignBatch batch : batches) {
            long copies = archived.stream().filter(n -> n.startsWith(batch.baseName() + ".")).count();
            if (copies != 1) {
                anomalies.add(batch.fileName() + " is archived " + copies + " times: " + archived);
            }
        }
    }

    private static List<String> secretsInLogs(ProductProcess product, List<String> secrets) throws IOException {
        try (Stream<Path> logs = Files.list(product.home)) {
            return logs.filter(p -> p.getFileName().toString().endsWith(".log"))
                    .flatMap(p -> {
                        String text;
                        try {
                            text = Files.readString(p);
                        } catch (IOException e) {
                            return Stream.empty();
                        }
                        return secrets.stream().filter(text::contains).map(s -> p.getFileName() + " shows a secret");
                    })
                    .toList();
        }
    }
}
