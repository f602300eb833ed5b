// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IFactory {
    function sweep(bytes32[] calldata salts) external;
}

/// For tests: one transaction sweeping one address through each of two factories (the
/// shop's and a look-alike), so one sweep carries Flushed events of addresses of both.
contract TwoFactorySweep {
    function sweepBoth(address first, bytes32 firstSalt, address second, bytes32 secondSalt) external {
        bytes32[] memory salts = new bytes32[](1);
        salts[0] = firstSalt;
        IFactory(first).sweep(salts);
        salts[0] = secondSalt;
        IFactory(second).sweep(salts);
    }
}
