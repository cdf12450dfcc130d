package org.topupbatch.app;

public final class TopupBatchMain {
    public static void main(String[] args) throws Exception {
        org.apache.camel.main.Main main = new org.apache.camel.main.Main(TopupBatchMain.class);
        main.run(args);
    }
}
