// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Stand-in for Chainlink's AggregatorV3 on the local chain: the ETH/USD, USDC/USD and
/// USDT/USD feeds are each this contract (all three have 8 decimals on mainnet).
/// It is placed at the real feed address with anvil_setCode, so no constructor ever
/// runs and storage starts empty: everything lives in constants or is written by
/// setRoundData. Until the first setRoundData, latestRoundData returns zeros, which a
/// careful reader treats as "no price".
/// The storage slots are part of the contract: the stablecoin feeds' first round is
/// written into them directly (scripts/lib/price-feed-mock.ts, writeRoundInStorage).
contract MockAggregatorV3 {
    uint80 private latestRound; // slot 0
    int256 private latestAnswer; // slot 1
    uint256 private latestStartedAt; // slot 2
    uint256 private latestUpdatedAt; // slot 3

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    function decimals() external pure returns (uint8) {
        return 8;
    }

    function description() external pure returns (string memory) {
        return "Chainlink price feed (local mock)";
    }

    function version() external pure returns (uint256) {
        return 4;
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return (latestRound, latestAnswer, latestStartedAt, latestUpdatedAt, latestRound);
    }

    function getRoundData(uint80 roundId)
        external
        view
        returns (uint80, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        // Only the latest round is kept; Chainlink reverts for rounds it does not have.
        require(roundId != 0 && roundId == latestRound, "No data present");
        return (latestRound, latestAnswer, latestStartedAt, latestUpdatedAt, latestRound);
    }

    /// Publishes a new round. updatedAt 0 means "now" (the block's timestamp); any other
    /// value lets tests publish a stale or future price.
    function setRoundData(int256 answer, uint256 updatedAt) external {
        uint256 at = updatedAt == 0 ? block.timestamp : updatedAt;
        latestRound += 1;
        latestAnswer = answer;
        latestStartedAt = at;
        latestUpdatedAt = at;
        emit AnswerUpdated(answer, latestRound, at);
    }
}
