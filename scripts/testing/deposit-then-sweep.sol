// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IFactory {
    function sweep(bytes32[] calldata salts) external;
}

/// For tests: deposits to an order's address and sweeps it in one call (anyone knows
/// their own order's salt): a deposit made in the very transaction of the flush that moves it.
contract DepositThenSweep {
    function go(address payable deposit, address factory, bytes32 salt) external payable {
        depositAndSweep(deposit, factory, salt, msg.value);
    }

    /// The same, then `later` wei more to the address once it is swept (its proxy takes
    /// it): the shop sees one deposit of the sum, of which the flush moved only a part.
    function goThenTopUp(address payable deposit, address factory, bytes32 salt, uint256 later) external payable {
        require(msg.value > later, "nothing before the sweep");
        depositAndSweep(deposit, factory, salt, msg.value - later);
        (bool ok, ) = deposit.call{value: later}("");
        require(ok, "top-up failed");
    }

    function depositAndSweep(address payable deposit, address factory, bytes32 salt, uint256 value) private {
        (bool ok, ) = deposit.call{value: value}("");
        require(ok, "deposit failed");
        bytes32[] memory salts = new bytes32[](1);
        salts[0] = salt;
        IFactory(factory).sweep(salts);
    }
}
