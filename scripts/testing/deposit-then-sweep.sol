// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IFactory {
    function sweep(bytes32[] calldata salts) external;
}

/// For tests: deposits to an order's address and sweeps it in one call (anyone knows
/// their own order's salt): a deposit made in the very transaction of the flush that moves it.
contract DepositThenSweep {
    function go(address payable deposit, address factory, bytes32 salt) external payable {
        (bool ok, ) = deposit.call{value: msg.value}("");
        require(ok, "deposit failed");
        bytes32[] memory salts = new bytes32[](1);
        salts[0] = salt;
        IFactory(factory).sweep(salts);
    }
}
