// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Contracts that send ETH in the unusual ways the shop must read right: calls that look
/// like payments in a trace but move nothing (CALLCODE, DELEGATECALL), several payments
/// in one transaction (a batch), and a payment whose amount depends on the state it runs
/// against (a sweep of the contract's balance).
contract OddPayer {
    receive() external payable {}

    /// CALLCODE into `to` with value: `to`'s code runs in this contract; no ETH leaves it.
    function viaCallcode(address to) external payable {
        assembly {
            if iszero(callcode(gas(), to, callvalue(), 0, 0, 0, 0)) { revert(0, 0) }
        }
    }

    /// DELEGATECALL into `to`: no value moves at all (the trace still shows the caller's value).
    function viaDelegatecall(address to) external payable {
        (bool ok, ) = to.delegatecall("");
        require(ok, "delegatecall failed");
    }

    /// Two payments to `to` in one transaction.
    function batch(address to, uint256 a, uint256 b) external payable {
        (bool ok1, ) = to.call{value: a}("");
        (bool ok2, ) = to.call{value: b}("");
        require(ok1 && ok2, "batch failed");
    }

    /// Pays `to` all this contract holds.
    function sweep(address to) external {
        (bool ok, ) = to.call{value: address(this).balance}("");
        require(ok, "sweep failed");
    }

    /// Sends `value` of this contract's balance to the caller.
    function take(uint256 value) external {
        payable(msg.sender).transfer(value);
    }
}
