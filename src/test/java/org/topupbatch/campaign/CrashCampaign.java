package org.topupbatch.campaign;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LostAnswerMode;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.sandbox.SandboxTier;
import org.topupbatch.testing.CallbackReceiver;
import org.topupbatch.testing.Poll;
import org.topupbatch.testing.SmsGateway;

/**
 * Runs the built jar again and again against a misbehaving sandbox (latency, async orders, lost
 * answers, errors before commit, duplicate webhooks), killing it at seeded moments: half of the
 * runs at a random time, half at one of the product's crash points, and now and then right after an
 * operator held or cancelled a batch while the product ran. Small batches keep arriving.
 * When the kills are spent, one last run finishes everything and {@link LedgerAudit} checks the
 * outcome. The money guards are on and the market moves under them: during a run, at a seeded
 * moment, prices may rise (a little, within the price tolerance, or too much) or fall back, and a
 * product may go out of stock or come back. Between runs an operator now and then holds, resumes or
 * cancels a batch (the jar's own commands; every hold is resumed before the last run). Everything
 * random derives from the seed, so a failure can be replayed. Besides the {@link LedgerAudit}, the
 * {@link OperatorLog} checks that no order of a batch was created while it was held or after it was cancelled.
 * Every batch's {@code batch_reported} callback goes to {@code topup.callback.url}, an ERP's receiver
 * that checks signatures and answers 500 to a seeded fifth of the tries; half of the kills at a crash
 * point are at the outbox's (a message claimed, not yet sent; the receiver's answer in, not yet
 * recorded), and {@link MessageAudit} checks that none was lost and, by event id, none doubled.
 * Some rows name a customer's mobile number ({@code notify_to}): a success's voucher goes to an SMS
 * gateway that answers 500 to a seeded fifth of the tries (and to the first try to some numbers), through the same outbox and its crash
 * points, and {@link VoucherAudit} checks it the same way: none lost, none doubled, none for a row
 * that did not succeed, each with its row's serial.
 */
final class CrashCampaign {

    static final List<String> CRASH_POINTS = List.of("intake-after-commit", "submit-after-sending",
            "submit-after-answer", "track-after-answer", "report-before-rename");
    /** The outbox's crash points (journal/CrashPoints): between a message's record and its delivery. */
    static final List<String> OUTBOX_POINTS = List.of("outbox-before-send", "outbox-after-answer");
    static final String CALLBACK_SECRET = "campaign-callback-secret-7f3";
    /** The share of callback tries the ERP's receiver answers 500. */
    static final double CALLBACK_FAILURES = 0.2;
    /**
     * The share of voucher SMS tries the customers' gateway answers 500; besides, the first try to every
     * number ending in 0, 3, 6 or 9 is always answered 500, so that every campaign retries vouchers.
     */
    static final double SMS_FAILURES = 0.2;
    private static final Duration RUN_LIMIT = Duration.ofMinutes(3);
    /** Moves of the market, one of which may happen during a run: knob, value. */
    static final List<String[]> MARKET = List.of(new String[] {"price-change", "+5%"}, new String[] {"price-change", "+25%"},
            new String[] {"price-change", ""}, new String[] {"unavailable", "FF100"}, new String[] {"unavailable", "GI60,XL10"},
            new String[] {"unavailable", ""});

    record Figures(long seed, String journal, int kills, int runs, int batches, int ordersChecked,
                   Map<String, Integer> killsByMoment, Map<String, Integer> marketMoves, MessageAudit.Result messages,
                   VoucherAudit.Result vouchers, Duration took, List<String> anomalies) {

        String describe() {
            return String.format("crash campaign on %s, seed %d: %d kills survived in %d runs %s, market and operator moves %s, %d batches,"
                            + " %d orders checked, messages: %s, vouchers: %s, %d anomalies, %d s", journal, seed, kills, runs,
                    killsByMoment, marketMoves, batches, ordersChecked, messages.describe(), vouchers.describe(), anomalies.size(), took.toSeconds());
        }
    }

    private final long seed;
    private final int killTarget;
    private final CampaignJournal journal;
    private final Path home;

    CrashCampaign(long seed, int killTarget, CampaignJournal journal, Path home) {
        this.seed = seed;
        this.killTarget = killTarget;
        this.journal = journal;
        this.home = home;
    }

    static SandboxConfig misbehavingSandbox(long seed) {
        return SandboxConfig.defaults().setSeed(seed).setTier(SandboxTier.GOLD)
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
        Map<String, Integer> market = new TreeMap<>();
        java.util.Set<String> held = new java.util.TreeSet<>();
        OperatorLog operator = new OperatorLog();
        List<String> anomalies = new ArrayList<>();
        int kills = 0;
        // a random of its own, so that a seed makes the same batches, moves and kills as before the messages came
        Random messages = new Random(seed * 31 + 17);
        // and the customers' vouchers two of their own: which rows name a number, how the gateway answers
        Random notifyTo = new Random(seed * 37 + 5);
        Random gatewayAnswers = new Random(seed * 41 + 3);
        try (SandboxProvider sandbox = SandboxProvider.start(misbehavingSandbox(seed), 0);
             CallbackReceiver erp = CallbackReceiver.start("/erp-cb", CALLBACK_SECRET);
             SmsGateway customers = SmsGateway.start()) {
            erp.answer(n -> {
                synchronized (messages) {
                    return messages.nextDouble() < CALLBACK_FAILURES ? 500 : 200;
                }
            });
            customers.answer(asked -> {
                int lastDigit = Character.digit(asked.to().charAt(asked.to().length() - 1), 10);
                if (lastDigit % 3 == 0 && customers.to(asked.to()).isEmpty()) {
                    return 500;
                }
                synchronized (gatewayAnswers) {
                    return gatewayAnswers.nextDouble() < SMS_FAILURES ? 500 : 200;
                }
            });
            ProductProcess product = new ProductProcess(Files.createDirectories(home), sandbox.baseUrl());
            product.env.putAll(journal.settings());
            product.env.put("TOPUP_CALLBACK_URL", erp.url("127.0.0.1"));
            product.env.put("TOPUP_CALLBACK_ALLOWED_HOSTS", "127.0.0.1");
            product.env.put("TOPUP_CALLBACK_SECRET", CALLBACK_SECRET);
            product.env.put("TOPUP_CUSTOMER_PHONE_CHANNEL", "sms");
            product.env.put("TOPUP_CUSTOMER_SMS_URI", customers.url());
            product.env.put("TOPUP_CUSTOMER_RESELLER_NAME", "Toko Kampanye");
            product.env.put("TOPUP_NOTIFY_RETRY_DELAY", "200"); // a failed try again within a once run
            sandbox.config().setWebhookUrl(product.webhookUrl());
            boolean lastRunFinished = true;
            while (kills < killTarget && product.runs() < killTarget * 4) {
                if (lastRunFinished || random.nextInt(3) == 0) {
                    CampaignBatch batch = CampaignBatch.generate("batch-" + (batches.size() + 1) + ".csv",
                            "C" + (batches.size() + 1) + "-", 3 + random.nextInt(5), random, notifyTo);
                    product.drop(batch.fileName(), batch.content());
                    batches.add(batch);
                }
                if (random.nextInt(4) == 0) {
                    operatorMove(product, batches, random, market, held, operator);
                }
                marketMoves(sandbox, random, market);
                String moment = nextKill(random, messages);
                boolean atPoint = !moment.contains("@");
                long requestsBefore = sandbox.stats().totalRequests();
                // the batches held at some moment of this run: its exit code tells the holds it saw at its
                // end, and an operator's cancel or resume during the run can land just after that
                java.util.Set<String> heldDuringRun = new java.util.HashSet<>(held);
                product.start(atPoint ? moment : null);
                if (!atPoint) {
                    // a random moment once the run talks to the provider: start-up alone is rarely interesting
                    long delay = Long.parseLong(moment.substring(moment.indexOf('@') + 1, moment.length() - 2));
                    Poll.atMost(RUN_LIMIT, () -> sandbox.stats().totalRequests(), n -> n != requestsBefore || !product.alive());
                    if (moment.startsWith("operator")) {
                        // the operator acts while the product sends, and the product dies right after
                        Thread.sleep(delay);
                        operatorMove(product, batches, random, market, held, operator);
                        heldDuringRun.addAll(held);
                        product.waitOrKillAfter(Duration.ofMillis(random.nextInt(300)));
                    } else {
                        product.waitOrKillAfter(Duration.ofMillis(delay));
                    }
                }
                int exit = product.await(RUN_LIMIT);
                System.out.println("  run " + product.runs() + " (" + moment + "): exit " + exit);
                if (exit == ProductProcess.KILLED) {
                    kills++;
                    byMoment.merge(atPoint ? moment.substring(0, moment.indexOf(':'))
                            : moment.startsWith("operator") ? "after an operator's move" : "random time", 1, Integer::sum);
                    lastRunFinished = false;
                } else if (exit == 0 || exit == 3 && !heldDuringRun.isEmpty()) {
                    // 3: the run ended with the rows of a held batch left queued, as it should (with seed
                    // 4648736136464 a run ended so, and the operator's cancel of that batch returned just after)
                    lastRunFinished = true;
                } else {
                    anomalies.add("run " + product.runs() + " exited with " + exit + " instead of 0:\n" + product.output());
                    break;
                }
            }
            for (String name : held) {
                operator.resuming(name, java.time.Instant.now());
                product.command("resume", name);
            }
            product.start(null);
            int exit = product.await(RUN_LIMIT);
            // a once run delivers what falls due within 30 s; a callback tried and answered 500 many
            // times over may wait past that for its next try, which the next start makes
            for (int more = 0; exit == 0 && more < 2 && product.output().contains("wait in the journal's outbox"); more++) {
                product.start(null);
                exit = product.await(RUN_LIMIT);
            }
            if (exit != 0) {
                anomalies.add("the final run exited with " + exit + " instead of 0:\n" + product.output());
            }
            LedgerAudit.Result audit = LedgerAudit.check(sandbox, product, batches);
            anomalies.addAll(audit.anomalies());
            anomalies.addAll(operator.ordersWhileStopped(sandbox.ledger(), batches));
            anomalies.addAll(secretsInLogs(product, sandbox.config().apiSecret(), "the api secret"));
            anomalies.addAll(secretsInLogs(product, CALLBACK_SECRET, "the callback secret"));
            MessageAudit.Result delivered = MessageAudit.check(List.copyOf(erp.received()), product.reports, batches);
            anomalies.addAll(delivered.anomalies());
            VoucherAudit.Result vouchers = VoucherAudit.check(List.copyOf(customers.received()), product.reports, batches);
            anomalies.addAll(vouchers.anomalies());
            return new Figures(seed, journal.name(), kills, product.runs(), batches.size(), audit.ordersChecked(),
                    byMoment, market, delivered, vouchers, Duration.ofNanos(System.nanoTime() - started), anomalies);
        }
    }

    /**
     * An operator holds, resumes or cancels a batch (before a run, or while one runs: on H2 the command
     * then goes through the running product's journal server), written down in {@code log}.
     */
    private void operatorMove(ProductProcess product, List<CampaignBatch> batches, Random random,
                              Map<String, Integer> moves, java.util.Set<String> held, OperatorLog log) throws Exception {
        if (batches.isEmpty()) {
            return;
        }
        String name = batches.get(random.nextInt(batches.size())).fileName();
        String action = held.contains(name) ? (random.nextBoolean() ? "resume" : "cancel")
                : (random.nextInt(3) == 0 ? "cancel" : "hold");
        if (action.equals("resume")) {
            log.resuming(name, java.time.Instant.now());
        }
        String said = product.command(action, name);
        java.time.Instant returned = java.time.Instant.now();
        if (action.equals("hold") && said.contains("is held:")) {
            held.add(name);
            log.held(name, returned);
        } else if (action.equals("cancel") && (said.contains("is cancelled:") || said.contains("was cancelled already"))) {
            held.remove(name);
            log.cancelled(name, returned);
        } else if (action.equals("resume")) {
            held.remove(name);
        }
        moves.merge("operator " + action, 1, Integer::sum);
    }

    /** Half of the runs see the market move, at a seeded moment within their first two seconds. */
    private void marketMoves(SandboxProvider sandbox, Random random, Map<String, Integer> moves) {
        if (random.nextBoolean()) {
            return;
        }
        String[] move = MARKET.get(random.nextInt(MARKET.size()));
        long delay = random.nextInt(2000);
        moves.merge("market " + move[0] + "=" + move[1], 1, Integer::sum);
        Thread mover = new Thread(() -> {
            try {
                Thread.sleep(delay);
                sandbox.config().set(move[0], move[1]);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "market");
        mover.setDaemon(true);
        mover.start();
    }

    /**
     * {@code point:n} for a crash point, {@code random@<ms>ms} for a kill at a random time, or
     * {@code operator@<ms>ms} for a kill right after an operator's move at a random time. Half of the
     * crash points drawn become one of the outbox's, chosen by {@code messages}.
     */
    private static String nextKill(Random random, Random messages) {
        if (random.nextInt(5) == 0) {
            return "operator@" + random.nextInt(1500) + "ms";
        }
        if (random.nextBoolean()) {
            String point = CRASH_POINTS.get(random.nextInt(CRASH_POINTS.size()));
            // intake passes once per new file: a later pass would rarely come
            int pass = point.startsWith("intake") ? 1 : 1 + random.nextInt(3);
            synchronized (messages) {
                if (messages.nextBoolean()) {
                    // a run sends a callback or two: the first is the one sure to come
                    return OUTBOX_POINTS.get(messages.nextInt(OUTBOX_POINTS.size())) + ":1";
                }
            }
            return point + ":" + pass;
        }
        return "random@" + random.nextInt(3000) + "ms";
    }

    private static List<String> secretsInLogs(ProductProcess product, String secret, String what) throws IOException {
        try (Stream<Path> logs = Files.list(product.home)) {
            return logs.filter(p -> p.getFileName().toString().endsWith(".log"))
                    .filter(p -> {
                        try {
                            return Files.readString(p).contains(secret);
                        } catch (IOException e) {
                            return false;
                        }
                    })
                    .map(p -> p.getFileName() + " shows " + what).toList();
        }
    }
}
