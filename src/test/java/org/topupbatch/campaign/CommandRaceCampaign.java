package org.topupbatch.campaign;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.flywaydb.core.Flyway;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.JournalDataSource;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;

/**
 * The operator's commands raced against the product's start and end (issue 37, docs/operating.md#commands-while-the-product-runs). First the journal is one an older jar left (schema version {@link #OLDER_SCHEMA}):
 * every command must refuse it in one line naming {@code migrate-journal} and migrate nothing. Then,
 * round after round, a once run takes a batch of a few seconds while the commands ({@code hold},
 * {@code resume}, {@code cancel}, {@code status}, {@code report}, {@code plan}, {@code reconcile}), in a
 * seeded order, go off side by side at seeded moments: some while it starts, the rest as its batch
 * ends and it closes its journal, and a last one once it is gone. Each command must exit 0 (or 2 where that is its
 * documented word: reconcile's exceptions) or 1 with exactly one line on stderr, with no stack trace
 * anywhere; a {@code cancel} that exited 0 must be in the journal, and so must a {@code hold} that said
 * so (unless a resume of the same round, which may have come after it, exited 0 too). Everything random derives from the seed.
 */
final class CommandRaceCampaign {

    static final List<String> KINDS = List.of("hold", "resume", "cancel", "status", "report", "plan", "reconcile");
    static final String OLDER_SCHEMA = "13";
    static final int ROWS = 12;
    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(90);
    private static final Duration RUN_LIMIT = Duration.ofSeconds(90);
    private static final Pattern TRACE = Pattern.compile("(?m)^\\s*at [\\w.$]+\\(.*\\)\\s*$|^Caused by: |Exception in thread");

    record Figures(long seed, String journal, int rounds, int commands, Map<String, Integer> exits,
                   Map<String, Integer> phases, Map<Integer, Integer> runExits, Duration took, List<String> anomalies) {

        String describe() {
            return String.format("command race campaign on %s, seed %d: %d rounds, %d commands, exits by command %s,"
                            + " by phase %s, once runs' exits %s, %d anomalies, %d s", journal, seed, rounds, commands, exits,
                    phases, runExits, anomalies.size(), took.toSeconds());
        }
    }

    /** A command's kind, its moment, and its outcome. */
    private record Fired(String kind, String phase, ProductProcess.CommandOutcome outcome) {
    }

    private final long seed;
    private final int rounds;
    private final CampaignJournal journal;
    private final Path home;
    private final List<String> anomalies = new ArrayList<>();
    private final Map<String, Integer> exits = new TreeMap<>();
    private final Map<String, Integer> phases = new TreeMap<>();
    private int commands;

    CommandRaceCampaign(long seed, int rounds, CampaignJournal journal, Path home) {
        this.seed = seed;
        this.rounds = rounds;
        this.journal = journal;
        this.home = home;
    }

    Figures run() throws Exception {
        long started = System.nanoTime();
        Random random = new Random(seed);
        Map<Integer, Integer> runExits = new TreeMap<>();
        // one order at a time, a few a second: a batch of ROWS takes a few seconds
        SandboxConfig config = SandboxConfig.defaults().setSeed(seed)
                .setLatency(DurationRange.of(Duration.ofMillis(150), Duration.ofMillis(250)));
        try (SandboxProvider sandbox = SandboxProvider.start(config, 0)) {
            ProductProcess product = new ProductProcess(Files.createDirectories(home), sandbox.baseUrl());
            product.env.putAll(journal.settings());
            product.env.put("TOPUP_SUBMIT_CONCURRENCY", "1");
            // a held batch ends its once run 5 s after the hold (exit 3), so that every round ends soon
            product.env.put("TOPUP_PENDING_TIMEOUT", "5s");
            sandbox.config().setWebhookUrl(product.webhookUrl());
            Path planned = home.resolve("plan-me.csv");
            Files.writeString(planned, batch("P-", 3));

            olderJournalIsRefused(product, planned);
            for (int round = 1; round <= rounds; round++) {
                String name = "race-" + round + ".csv";
                String prefix = "R" + round + "-";
                product.drop(name, batch(prefix, ROWS));
                List<String> kinds = new ArrayList<>(KINDS);
                Collections.shuffle(kinds, random);
                int atStart = 1 + random.nextInt(kinds.size() - 2);
                List<Fired> fired = new ArrayList<>();
                product.start(null);
                // the first commands while it starts, at seeded moments within its first 3 s, side by side
                fired.addAll(fireTogether(product, kinds.subList(0, atStart), "start", name, planned, random, 3000));
                // the others as its batch ends: a few orders before the last, so that their JVMs reach the
                // journal while the run writes its report and closes it
                int near = ROWS - 2 - random.nextInt(6);
                Poll.atMost(RUN_LIMIT, () -> ordersOf(sandbox, prefix), n -> n >= near || !product.alive());
                fired.addAll(fireTogether(product, kinds.subList(atStart, kinds.size() - 1), "end", name, planned, random, 1500));
                int exit = product.await(RUN_LIMIT);
                runExits.merge(exit, 1, Integer::sum);
                fired.add(fire(product, kinds.get(kinds.size() - 1), "gone", name, planned));
                boolean mayBeHeld = fired.stream().anyMatch(f -> f.kind().equals("hold") && f.outcome().exit() == 0);
                if (exit != 0 && !(exit == 3 && mayBeHeld)) {
                    anomalies.add("round " + round + ": the once run exited " + exit + ":\n" + product.output());
                }
                effectsInTheJournal(product, name, fired);
                // a batch left held would hold up the rounds after it: the operator cancels it
                fire(product, "cancel", "gone", name, planned);
            }
            return new Figures(seed, journal.name(), rounds, commands, exits, phases, runExits,
                    Duration.ofNanos(System.nanoTime() - started), anomalies);
        }
    }

    /** A journal an older jar left: every command refuses it naming migrate-journal, and none migrates it. */
    private void olderJournalIsRefused(ProductProcess product, Path planned) throws Exception {
        Flyway older = flyway(product).target(OLDER_SCHEMA).load();
        older.migrate();
        int applied = older.info().applied().length;
        for (String kind : List.of("status", "hold", "plan")) {
            Fired f = fire(product, kind, "older journal", "race-1.csv", planned);
            if (f.outcome().exit() != 1 || !f.outcome().err().contains("migrate-journal")) {
                anomalies.add(kind + " on an older journal did not refuse it naming migrate-journal: " + f.outcome());
            }
        }
        int after = flyway(product).load().info().applied().length;
        if (after != applied) {
            anomalies.add("a command migrated the older journal: " + applied + " migrations before, " + after + " after");
        }
    }

    private org.flywaydb.core.api.configuration.FluentConfiguration flyway(ProductProcess product) throws Exception {
        Map<String, String> settings = journal.settings();
        String url = settings.get("TOPUP_DB_URL");
        if (url == null) {
            Path data = product.home.resolve("data");
            Files.createDirectories(data.resolve("journal"));
            // made like a journal of before passwords; the first process that holds its lock gives it one
            Path passwordFile = data.resolve("journal").resolve("journal.password");
            String password = Files.exists(passwordFile) ? Files.readString(passwordFile).strip() : "";
            return Flyway.configure().dataSource(JournalDataSource.url(data, null), "SA", password)
                    .locations("classpath:db/migration");
        }
        return Flyway.configure().dataSource(url, settings.get("TOPUP_DB_USER"), settings.get("TOPUP_DB_PASSWORD"))
                .locations("classpath:db/migration");
    }

    /** Fires these commands side by side, each after a seeded delay of up to {@code spreadMillis}; returns when all ended. */
    private List<Fired> fireTogether(ProductProcess product, List<String> kinds, String moment, String batch, Path planned,
                                     Random random, int spreadMillis) throws Exception {
        List<java.util.concurrent.Future<Fired>> running = new ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(kinds.size());
        try {
            for (String kind : kinds) {
                long delay = random.nextInt(spreadMillis);
                running.add(pool.submit(() -> {
                    Thread.sleep(delay);
                    return fire(product, kind, moment, batch, planned);
                }));
            }
            List<Fired> fired = new ArrayList<>();
            for (java.util.concurrent.Future<Fired> f : running) {
                fired.add(f.get(COMMAND_LIMIT.toSeconds() + 10, java.util.concurrent.TimeUnit.SECONDS));
            }
            return fired;
        } finally {
            pool.shutdownNow();
        }
    }

    private Fired fire(ProductProcess product, String kind, String moment, String batch, Path planned) throws Exception {
        String phase = moment.equals("gone") || moment.equals("older journal") ? moment
                : moment + (product.alive() ? " (running)" : " (gone)");
        List<String> args = switch (kind) {
            case "plan" -> List.of("plan", planned.toString());
            case "reconcile" -> List.of("reconcile");
            default -> List.of(kind, batch);
        };
        long began = System.nanoTime();
        ProductProcess.CommandOutcome outcome = product.commandOutcome(COMMAND_LIMIT, args.toArray(String[]::new));
        String ended = moment.equals("gone") || moment.equals("older journal") ? "" : product.alive() ? ", product running" : ", product gone";
        synchronized (this) {
            commands++;
            exits.merge(kind + "=" + outcome.exit(), 1, Integer::sum);
            phases.merge(phase, 1, Integer::sum);
            judge(kind, phase, outcome);
        }
        System.out.println("  " + String.join(" ", args) + " (" + phase + ended + "): exit " + outcome.exit() + " in "
                + Duration.ofNanos(System.nanoTime() - began).toMillis() + " ms"
                + (outcome.err().isBlank() ? "" : ": " + outcome.err().strip().lines().findFirst().orElse("")));
        return new Fired(kind, phase, outcome);
    }

    private void judge(String kind, String phase, ProductProcess.CommandOutcome outcome) {
        String what = String.join(" ", outcome.args()) + " (" + phase + ")";
        Set<Integer> allowed = kind.equals("reconcile") ? Set.of(0, 1, 2) : Set.of(0, 1);
        List<String> errLines = outcome.err().lines().filter(l -> !l.isBlank()).toList();
        if (!allowed.contains(outcome.exit())) {
            anomalies.add(what + " exited " + outcome.exit() + ": " + outcome);
        } else if (outcome.exit() == 1 && errLines.size() != 1) {
            anomalies.add(what + " exited 1 with " + errLines.size() + " lines on stderr instead of one: " + outcome.err());
        } else if (outcome.exit() != 1 && !errLines.isEmpty()) {
            anomalies.add(what + " exited " + outcome.exit() + " but complained on stderr: " + outcome.err());
        }
        if (TRACE.matcher(outcome.out()).find() || TRACE.matcher(outcome.err()).find()) {
            anomalies.add(what + " showed a stack trace: " + outcome);
        }
    }

    /**
     * With the product gone: a cancel that exited 0 is in the journal; so is a hold that said the
     * batch is held, unless a resume of the round exited 0 too or a command on the batch was not confirmed.
     */
    private void effectsInTheJournal(ProductProcess product, String name, List<Fired> fired) {
        Map<String, String> settings = journal.settings();
        BatchRecord batch;
        try (JdbcJournal read = JdbcJournal.openForReading(product.home.resolve("data"), settings.get("TOPUP_DB_URL"),
                settings.get("TOPUP_DB_USER"), settings.get("TOPUP_DB_PASSWORD"))) {
            List<BatchRecord> found = read.reporting().batchesForFile(name);
            if (found.isEmpty()) {
                anomalies.add(name + " is not in the journal after its once run");
                return;
            }
            batch = found.get(0);
        }
        // the commands of a round ran side by side: judged on what does not depend on their order
        boolean cancelled = fired.stream().anyMatch(f -> f.kind().equals("cancel") && f.outcome().exit() == 0);
        boolean saidHeld = fired.stream().anyMatch(f -> f.kind().equals("hold") && f.outcome().exit() == 0
                && f.outcome().out().contains("is held"));
        boolean undoneOrUnknown = fired.stream().anyMatch(f -> f.kind().equals("resume") && f.outcome().exit() == 0
                || Set.of("hold", "resume", "cancel").contains(f.kind()) && f.outcome().exit() == 1
                && !f.outcome().err().contains("no batch '"));
        if (cancelled && !batch.cancelled()) {
            anomalies.add(name + ": a cancel exited 0 but the journal has no cancel: " + fired);
        }
        if (saidHeld && !undoneOrUnknown && !batch.held() && !batch.cancelled()) {
            anomalies.add(name + ": a hold exited 0 saying so but the journal has no hold: " + fired);
        }
    }

    private static long ordersOf(SandboxProvider sandbox, String prefix) {
        return sandbox.ledger().stream().filter(e -> e.refId().startsWith(prefix)).count();
    }

    /** Instant orders of one product, each for a customer of its own. */
    static String batch(String prefix, int rows) {
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone\n");
        int base = Math.abs(prefix.hashCode() % 10_000) * 1_000;
        for (int i = 1; i <= rows; i++) {
            csv.append(prefix).append(i).append(",FF100,").append(30_000_000 + base + i).append(",\n");
        }
        return csv.toString();
    }
}
